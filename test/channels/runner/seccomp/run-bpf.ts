/**
 * A classic BPF interpreter for the instructions the seccomp assembler emits, so tests can ask
 * what a filter answers for a call on any architecture, not only the one they run on.
 */

export interface SeccompCall {
  /** AUDIT_ARCH_* of the calling ABI. */
  arch: number;
  nr: number;
  /** Up to six 64-bit arguments. */
  args?: bigint[];
}

/** The action (SECCOMP_RET_*) the program returns for `call`. */
export function runSeccompProgram(program: Buffer, call: SeccompCall): number {
  const data = Buffer.alloc(64);
  data.writeUInt32LE(call.nr >>> 0, 0);
  data.writeUInt32LE(call.arch >>> 0, 4);
  (call.args ?? []).forEach((arg, index) => data.writeBigUInt64LE(BigInt.asUintN(64, arg), 16 + 8 * index));
  let accumulator = 0;
  for (let pc = 0; pc * 8 < program.length; ) {
    const at = pc * 8;
    const [code, jt, jf, k] = [program.readUInt16LE(at), program.readUInt8(at + 2), program.readUInt8(at + 3), program.readUInt32LE(at + 4)];
    switch (code) {
      case 0x20:
        accumulator = data.readUInt32LE(k);
        pc += 1;
        break;
      case 0x06:
        return k;
      case 0x15:
      case 0x25:
      case 0x35:
      case 0x45: {
        const holds = code === 0x15 ? accumulator === k : code === 0x25 ? accumulator > k : code === 0x35 ? accumulator >= k : (accumulator & k) >>> 0 !== 0;
        pc += 1 + (holds ? jt : jf);
        break;
      }
      default:
        throw new Error(`instruction ${pc}: opcode 0x${code.toString(16)} is not one the assembler emits`);
    }
  }
  throw new Error('the program ran off its end');
}
