/** Who is calling: the token's subject and role, and the permissions that role holds. */
export interface Principal {
  sub: string;
  role: string;
  permissions: ReadonlySet<string>;
}
