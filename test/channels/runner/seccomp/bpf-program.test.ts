import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assembleBpf, BPF_MAX_JUMP, type BpfStep } from '../../../../host/channels/runner/seccomp/bpf-program.ts';

/** The program's instructions as [code, jt, jf, k]. */
function decode(program: Buffer): number[][] {
  const instructions: number[][] = [];
  for (let at = 0; at < program.length; at += 8) {
    instructions.push([program.readUInt16LE(at), program.readUInt8(at + 2), program.readUInt8(at + 3), program.readUInt32LE(at + 4)]);
  }
  return instructions;
}

const RETURN_ALLOW: BpfStep = { kind: 'return', k: 0x7fff_0000 };

test('encodes each instruction as 8 little-endian bytes: code, jt, jf, k', () => {
  const program = assembleBpf([{ kind: 'load', offset: 4 }, RETURN_ALLOW]);
  assert.deepEqual([...program], [0x20, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0x7f]);
});

test('resolves labels to the number of instructions a jump skips; no target is the next instruction', () => {
  const program = assembleBpf([
    { kind: 'load', offset: 0 },
    { kind: 'jump', test: 'eq', k: 1, ifTrue: 'refuse', ifFalse: undefined },
    { kind: 'jump', test: 'set', k: 0x80, ifFalse: 'allow' },
    { kind: 'label', name: 'refuse' },
    { kind: 'return', k: 0x0005_0001 },
    { kind: 'label', name: 'allow' },
    RETURN_ALLOW,
  ]);
  assert.deepEqual(decode(program), [
    [0x20, 0, 0, 0],
    [0x15, 1, 0, 1],
    [0x45, 0, 1, 0x80],
    [0x06, 0, 0, 0x0005_0001],
    [0x06, 0, 0, 0x7fff_0000],
  ]);
});

test('encodes each jump test with its own opcode: eq, gt, ge, set', () => {
  const jumps = (['eq', 'gt', 'ge', 'set'] as const).map((test): BpfStep => ({ kind: 'jump', test, k: 7 }));
  assert.deepEqual(
    decode(assembleBpf([...jumps, RETURN_ALLOW])).map(([code]) => code),
    [0x15, 0x25, 0x35, 0x45, 0x06],
  );
});

test(`accepts a jump of ${BPF_MAX_JUMP} instructions and refuses one of ${BPF_MAX_JUMP + 1}, which a byte cannot hold`, () => {
  const jumpOver = (count: number): BpfStep[] => [
    { kind: 'load', offset: 0 },
    { kind: 'jump', test: 'eq', k: 0, ifTrue: 'far' },
    ...Array.from({ length: count }, (): BpfStep => ({ kind: 'return', k: 0 })),
    { kind: 'label', name: 'far' },
    RETURN_ALLOW,
  ];
  assert.equal(decode(assembleBpf(jumpOver(BPF_MAX_JUMP)))[1]![1], BPF_MAX_JUMP);
  assert.throws(() => assembleBpf(jumpOver(BPF_MAX_JUMP + 1)), { name: 'RangeError', message: /256 instructions ahead, more than a jump's 255/ });
});

test('refuses a jump backwards, to a label that does not exist, and a label defined twice', () => {
  assert.throws(() => assembleBpf([{ kind: 'label', name: 'top' }, { kind: 'jump', test: 'eq', k: 0, ifTrue: 'top' }, RETURN_ALLOW]), /behind it/);
  assert.throws(() => assembleBpf([{ kind: 'jump', test: 'eq', k: 0, ifTrue: 'nowhere' }, RETURN_ALLOW]), /no label "nowhere"/);
  assert.throws(() => assembleBpf([{ kind: 'label', name: 'twice' }, { kind: 'label', name: 'twice' }, RETURN_ALLOW]), /defined twice/);
});

test('refuses a program that can run off its end, or has no instruction', () => {
  assert.throws(() => assembleBpf([RETURN_ALLOW, { kind: 'load', offset: 0 }]), /must end with a return/);
  assert.throws(() => assembleBpf([]), /at least one instruction/);
});

test('refuses a load outside struct seccomp_data or not on a word, and a value wider than 32 bits', () => {
  for (const offset of [64, 2, -4]) assert.throws(() => assembleBpf([{ kind: 'load', offset }, RETURN_ALLOW]), /not an aligned word of struct seccomp_data/);
  for (const k of [2 ** 32, -1, 1.5]) assert.throws(() => assembleBpf([{ kind: 'return', k }]), /not a 32-bit unsigned value/);
});
