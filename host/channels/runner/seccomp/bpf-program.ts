/**
 * A small assembler for classic BPF, the language of seccomp filters. A program is a list of
 * steps that name their jump targets by label; `assembleBpf` turns it into the bytes the kernel
 * reads: one `struct sock_filter { u16 code; u8 jt; u8 jf; u32 k }` per instruction, 8 bytes,
 * little-endian (x86_64 and aarch64 both are). Classic BPF only jumps forward, by at most 255
 * instructions (jt and jf are one byte each): a program that needs more is refused here rather
 * than mis-encoded, since a wrapped offset would land on the wrong instruction.
 */

/** Where a jump goes: a label, or (undefined) the next instruction. */
export type BpfTarget = string | undefined;

export type BpfStep =
  | { kind: 'label'; name: string }
  /** A = the 32-bit word at `offset` of `struct seccomp_data`. */
  | { kind: 'load'; offset: number }
  /** Compares A with `k` (`set`: A & k is not 0) and goes to `ifTrue` or `ifFalse`. */
  | { kind: 'jump'; test: 'eq' | 'gt' | 'ge' | 'set'; k: number; ifTrue?: BpfTarget; ifFalse?: BpfTarget }
  /** Ends the filter with the action `k` (SECCOMP_RET_*). */
  | { kind: 'return'; k: number };

/** Bytes of one `struct sock_filter`. */
export const BPF_INSTRUCTION_BYTES = 8;
/** The kernel's limit on a filter's length (BPF_MAXINSNS). */
export const BPF_MAX_INSTRUCTIONS = 4096;
/** The longest jump jt and jf can hold. */
export const BPF_MAX_JUMP = 255;
/** `struct seccomp_data` is 64 bytes: nr, arch, instruction_pointer, args[6]. */
const SECCOMP_DATA_BYTES = 64;

// Opcodes (linux/bpf_common.h): class | size | mode, or class | test | source.
const BPF_LD_W_ABS = 0x00 | 0x00 | 0x20;
const BPF_RET_K = 0x06 | 0x00;
const BPF_JMP = 0x05;
const JUMP_TESTS = { eq: 0x10, gt: 0x20, ge: 0x30, set: 0x40 } as const;

/** The program's bytes; throws a RangeError naming the step that cannot be encoded. */
export function assembleBpf(steps: readonly BpfStep[]): Buffer {
  const labels = labelIndexes(steps);
  const instructions = steps.filter((step) => step.kind !== 'label');
  if (instructions.length === 0) throw new RangeError('a BPF program needs at least one instruction');
  if (instructions.length > BPF_MAX_INSTRUCTIONS) throw new RangeError(`${instructions.length} instructions: more than the kernel's ${BPF_MAX_INSTRUCTIONS}`);
  // The kernel refuses a program that can run off its end: the last instruction must return.
  if (instructions.at(-1)!.kind !== 'return') throw new RangeError('a BPF program must end with a return');
  const bytes = Buffer.alloc(instructions.length * BPF_INSTRUCTION_BYTES);
  instructions.forEach((step, index) => {
    const at = index * BPF_INSTRUCTION_BYTES;
    const [code, jt, jf, k] = encode(step, index, labels);
    bytes.writeUInt16LE(code, at);
    bytes.writeUInt8(jt, at + 2);
    bytes.writeUInt8(jf, at + 3);
    bytes.writeUInt32LE(k, at + 4);
  });
  return bytes;
}

/** Each label's instruction index: the index of the first instruction after it. */
function labelIndexes(steps: readonly BpfStep[]): Map<string, number> {
  const labels = new Map<string, number>();
  let index = 0;
  for (const step of steps) {
    if (step.kind !== 'label') {
      index++;
      continue;
    }
    if (labels.has(step.name)) throw new RangeError(`label "${step.name}" is defined twice`);
    labels.set(step.name, index);
  }
  return labels;
}

function encode(step: Exclude<BpfStep, { kind: 'label' }>, index: number, labels: Map<string, number>): [number, number, number, number] {
  switch (step.kind) {
    case 'load':
      if (!Number.isInteger(step.offset) || step.offset < 0 || step.offset % 4 !== 0 || step.offset >= SECCOMP_DATA_BYTES) {
        throw new RangeError(`instruction ${index}: offset ${step.offset} is not an aligned word of struct seccomp_data`);
      }
      return [BPF_LD_W_ABS, 0, 0, step.offset];
    case 'return':
      return [BPF_RET_K, 0, 0, word(step.k, index)];
    case 'jump':
      return [BPF_JMP | JUMP_TESTS[step.test], offset(step.ifTrue, index, labels), offset(step.ifFalse, index, labels), word(step.k, index)];
  }
}

/** How many instructions a jump from `index` skips to reach `target`. */
function offset(target: BpfTarget, index: number, labels: Map<string, number>): number {
  if (target === undefined) return 0;
  const destination = labels.get(target);
  if (destination === undefined) throw new RangeError(`instruction ${index}: no label "${target}"`);
  const skip = destination - index - 1;
  if (skip < 0) throw new RangeError(`instruction ${index}: label "${target}" is behind it (classic BPF jumps forward only)`);
  if (skip > BPF_MAX_JUMP) throw new RangeError(`instruction ${index}: label "${target}" is ${skip} instructions ahead, more than a jump's ${BPF_MAX_JUMP}`);
  return skip;
}

function word(k: number, index: number): number {
  if (!Number.isInteger(k) || k < 0 || k > 0xffff_ffff) throw new RangeError(`instruction ${index}: ${k} is not a 32-bit unsigned value`);
  return k;
}
