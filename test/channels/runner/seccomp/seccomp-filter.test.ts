import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { FIRST_UNREVIEWED_NR, seccompFilter } from '../../../../host/channels/runner/seccomp/seccomp-filter.ts';
import { CLONE_NAMESPACE_FLAGS, ERRNO, SECCOMP_RULES, type ArgTest, type SeccompRule } from '../../../../host/channels/runner/seccomp/seccomp-rules.ts';
import { SYSCALL_NUMBERS, syscallNumber, type SyscallArch, type SyscallName } from '../../../../host/channels/runner/seccomp/syscall-numbers.ts';
import { runSeccompProgram } from './run-bpf.ts';

const AUDIT_ARCH: Record<SyscallArch, number> = { x64: 0xc000_003e, arm64: 0xc000_00b7 };
const AUDIT_ARCH_I386 = 0x4000_0003;
const ALLOW = 0x7fff_0000;
const refused = (errno: number) => (0x0005_0000 | errno) >>> 0;
/** `read`: a call no rule names, on each architecture. */
const READ: Record<SyscallArch, number> = { x64: 0, arm64: 63 };
const ARCHES: SyscallArch[] = ['x64', 'arm64'];

function program(arch: SyscallArch, rules?: readonly SeccompRule[]): Buffer {
  const filter = seccompFilter(arch, rules);
  assert.ok(filter.ok, filter.ok ? '' : filter.reason);
  return filter.program;
}

/** What the program answers for `name(...args)` on `arch`. */
function answer(arch: SyscallArch, name: SyscallName, args: bigint[] = []): number {
  return runSeccompProgram(program(arch), { arch: AUDIT_ARCH[arch], nr: syscallNumber(name, arch)!, args });
}

/** An argument list the rule's test holds for, and one it does not. */
function argsFor(when: ArgTest): { matching: bigint[]; other: bigint[] } {
  const at = (value: bigint) => Object.assign(Array<bigint>(6).fill(0n), { [when.arg]: value });
  switch (when.test) {
    case 'any-bit':
      return { matching: at(BigInt(when.mask & -when.mask)), other: at(0n) };
    case 'equals':
      return { matching: at(BigInt(when.value)), other: at(BigInt(when.value) + 1n) };
    case 'not-equals':
    case 'not-equals-64':
      return { matching: at(BigInt(when.value) + 1n), other: at(BigInt(when.value)) };
  }
}

test('checks the calling ABI first: it loads seccomp_data.arch, compares it with the native one and refuses any other', () => {
  for (const arch of ARCHES) {
    const filter = program(arch);
    assert.deepEqual([filter.readUInt16LE(0), filter.readUInt32LE(4)], [0x20, 4], `${arch}: the first instruction loads the arch`);
    assert.deepEqual([filter.readUInt16LE(8), filter.readUInt32LE(12)], [0x15, AUDIT_ARCH[arch]], `${arch}: the second compares it`);
    assert.equal(runSeccompProgram(filter, { arch: AUDIT_ARCH_I386, nr: READ[arch] }), refused(ERRNO.ENOSYS));
    assert.equal(runSeccompProgram(filter, { arch: AUDIT_ARCH[arch], nr: READ[arch] }), ALLOW);
  }
});

test('on x86_64 refuses every x32 call (numbers with bit 30 set), which the native arch value does not tell apart', () => {
  const filter = program('x64');
  assert.equal(runSeccompProgram(filter, { arch: AUDIT_ARCH.x64, nr: 0x4000_0000 | READ.x64 }), refused(ERRNO.ENOSYS));
});

test('refuses, as if absent, every call number past those the rules were reviewed against, on each architecture', () => {
  for (const arch of ARCHES) {
    const filter = program(arch);
    for (const nr of [FIRST_UNREVIEWED_NR, FIRST_UNREVIEWED_NR + 1, 1_000, 0x4000_0000, 0xffff_ffff]) {
      assert.equal(runSeccompProgram(filter, { arch: AUDIT_ARCH[arch], nr }), refused(ERRNO.ENOSYS), `${arch}: ${nr}`);
    }
    assert.equal(runSeccompProgram(filter, { arch: AUDIT_ARCH[arch], nr: FIRST_UNREVIEWED_NR - 1 }), ALLOW, `${arch}: the last reviewed number`);
  }
});

test('refuses every call each rule names with its errno, on each architecture where the call exists, and lets the others through', () => {
  for (const arch of ARCHES) {
    for (const rule of SECCOMP_RULES) {
      if (syscallNumber(rule.syscall, arch) === undefined) continue;
      const what = `${arch} ${rule.syscall} (${rule.why})`;
      if (!rule.when) {
        assert.equal(answer(arch, rule.syscall), refused(ERRNO[rule.errno]), what);
        continue;
      }
      const { matching, other } = argsFor(rule.when);
      assert.equal(answer(arch, rule.syscall, matching), refused(ERRNO[rule.errno]), `${what}: refused`);
      assert.equal(answer(arch, rule.syscall, other), ALLOW, `${what}: allowed`);
    }
  }
});

test('never kills: every action of the program is allow or an errno', () => {
  for (const arch of ARCHES) {
    const filter = program(arch);
    for (let at = 0; at < filter.length; at += 8) {
      if (filter.readUInt16LE(at) !== 0x06) continue;
      const action = filter.readUInt32LE(at + 4);
      assert.ok(action === ALLOW || action >>> 16 === 0x0005, `${arch}: action 0x${action.toString(16)}`);
    }
  }
});

test('reads the argument words as the kernel does: clone flags, ioctl commands and socket families from the low word, personality whole', () => {
  for (const arch of ARCHES) {
    const high = 1n << 32n;
    assert.equal(answer(arch, 'clone', [BigInt(CLONE_NAMESPACE_FLAGS & 0x4000_0000) | 17n]), refused(ERRNO.EPERM), `${arch}: CLONE_NEWNET | SIGCHLD`);
    assert.equal(answer(arch, 'clone', [0x003d_0f00n]), ALLOW, `${arch}: the flags glibc creates a thread with`);
    assert.equal(answer(arch, 'clone', [high]), ALLOW, `${arch}: clone's flags hold no namespace bit above 32`);
    assert.equal(answer(arch, 'ioctl', [0n, high | 0x5412n]), refused(ERRNO.EPERM), `${arch}: TIOCSTI with high bits set`);
    assert.equal(answer(arch, 'socket', [high | 2n]), refused(ERRNO.EAFNOSUPPORT), `${arch}: AF_INET with high bits set`);
    assert.equal(answer(arch, 'personality', [high]), refused(ERRNO.EPERM), `${arch}: personality with only high bits set`);
    assert.equal(answer(arch, 'personality', [0n]), ALLOW, `${arch}: PER_LINUX`);
  }
});

test('leaves out the calls an architecture does not have, instead of filtering another call by their number', () => {
  assert.equal(syscallNumber('modify_ldt', 'arm64'), undefined);
  assert.equal(syscallNumber('uselib', 'arm64'), undefined);
  // 154 is modify_ldt on x86_64 but setpgid on aarch64: it must stay open there.
  assert.equal(runSeccompProgram(program('arm64'), { arch: AUDIT_ARCH.arm64, nr: 154 }), ALLOW);
  assert.equal(runSeccompProgram(program('x64'), { arch: AUDIT_ARCH.x64, nr: 154 }), refused(ERRNO.EPERM));
});

test('says why it cannot build a filter for an architecture it does not know', () => {
  assert.deepEqual(seccompFilter('riscv64'), { ok: false, reason: 'seccomp filter: architecture riscv64 is not supported' });
  assert.deepEqual(seccompFilter('toString'), { ok: false, reason: 'seccomp filter: architecture toString is not supported' });
});

test("a rule dropped from the table leaves its call open: the program is the table's, nothing else", () => {
  const withoutPtrace = program('x64', SECCOMP_RULES.filter((rule) => rule.syscall !== 'ptrace'));
  assert.equal(runSeccompProgram(withoutPtrace, { arch: AUDIT_ARCH.x64, nr: syscallNumber('ptrace', 'x64')! }), ALLOW);
  assert.equal(answer('x64', 'ptrace'), refused(ERRNO.EPERM));
});

// The kernel's own numbers, where this machine has its headers: a wrong number in the table would
// leave a call open without a sign.
const HEADERS: Record<SyscallArch, string> = { x64: '/usr/include/x86_64-linux-gnu/asm/unistd_64.h', arm64: '/usr/include/asm-generic/unistd.h' };
for (const arch of ARCHES) {
  const header = HEADERS[arch];
  test(`the ${arch} numbers are the kernel's, as ${header} gives them`, { skip: !existsSync(header) && `${header} is not installed (linux-libc-dev)` }, () => {
    const text = readFileSync(header, 'utf8');
    // Headers older than a call do not name it: such a call is checked only by newer headers.
    const newest = Math.max(...[...text.matchAll(/^#define __NR(?:3264)?_\w+\s+(\d+)/gm)].map((match) => Number(match[1])));
    for (const name of Object.keys(SYSCALL_NUMBERS) as SyscallName[]) {
      const defined = new RegExp(`^#define __NR(?:3264)?_${name}\\s+(\\d+)`, 'm').exec(text)?.[1];
      const ours = syscallNumber(name, arch);
      if (defined === undefined && ours !== undefined && ours > newest) continue;
      assert.equal(ours, defined === undefined ? undefined : Number(defined), `${arch} ${name}`);
    }
  });
}
