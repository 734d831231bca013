/** A variable an expression may read, with what is under it: what completion offers after `$` and `.`. */
export interface Binding {
  name: string;
  info: string;
  /** A short label shown beside the name: a field's type. */
  detail?: string;
  children?: Binding[];
}
