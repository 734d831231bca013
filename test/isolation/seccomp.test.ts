/**
 * The runner's seccomp filter, call by call: a probe in the runner's exact sandbox makes each
 * refused system call and gets the rule's errno. Run again without the filter, and with the filter
 * built from the table minus that call's rules, it gets what the kernel alone gives: so the rule,
 * not the namespaces, is what refused it, and a rule dropped from the table would be caught.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { detectIsolation } from '../../host/channels/runner/detect-isolation.ts';
import { seccompFilter } from '../../host/channels/runner/seccomp/seccomp-filter.ts';
import { SECCOMP_RULES, type ErrnoName } from '../../host/channels/runner/seccomp/seccomp-rules.ts';
import type { SyscallName } from '../../host/channels/runner/seccomp/syscall-numbers.ts';
import { buildProbe, NO_COMPILER, type Probe } from './seccomp-probe.ts';

interface Case {
  probe: string;
  errno: ErrnoName;
  /** The rules' call. */
  syscall: SyscallName;
  /**
   * Whether the kernel, in the same sandbox without the filter, lets it through or fails it with
   * another errno everywhere; false where it may refuse with the same one (no capabilities).
   */
  provable: boolean;
}

const CASES: Case[] = [
  { probe: 'unshare-user', errno: 'EPERM', syscall: 'unshare', provable: true },
  { probe: 'clone-newuser', errno: 'EPERM', syscall: 'clone', provable: true },
  { probe: 'clone-newnet', errno: 'EPERM', syscall: 'clone', provable: false },
  { probe: 'mount', errno: 'EPERM', syscall: 'mount', provable: false },
  { probe: 'ptrace', errno: 'EPERM', syscall: 'ptrace', provable: true },
  { probe: 'bpf', errno: 'EPERM', syscall: 'bpf', provable: false },
  { probe: 'io-uring-setup', errno: 'ENOSYS', syscall: 'io_uring_setup', provable: true },
  { probe: 'keyctl', errno: 'EPERM', syscall: 'keyctl', provable: true },
  { probe: 'socket-inet', errno: 'EAFNOSUPPORT', syscall: 'socket', provable: true },
  { probe: 'socket-packet', errno: 'EAFNOSUPPORT', syscall: 'socket', provable: true },
  { probe: 'ioctl-tiocsti', errno: 'EPERM', syscall: 'ioctl', provable: true },
  { probe: 'personality-1', errno: 'EPERM', syscall: 'personality', provable: true },
  { probe: 'perf-event-open', errno: 'EPERM', syscall: 'perf_event_open', provable: true },
  { probe: 'userfaultfd', errno: 'EPERM', syscall: 'userfaultfd', provable: true },
];

/** Calls the filter must leave alone: a Unix socket, a plain fork, PER_LINUX. */
const ALLOWED = ['socket-unix', 'clone-plain', 'personality-0'];

let probe: Probe;
let filter: Uint8Array;

before(async () => {
  if (NO_COMPILER) return;
  const isolation = await detectIsolation();
  assert.equal(isolation.tier, 'sandbox', `the seccomp tests need the sandbox tier: ${isolation.reason}`);
  filter = isolation.seccomp!;
  probe = await buildProbe(isolation.bwrapPath);
});
after(() => probe?.remove());

test('each refused call fails in the runner sandbox with its rule\'s errno', { skip: NO_COMPILER }, async (t) => {
  for (const { probe: name, errno } of CASES) {
    await t.test(`${name}: ${errno}`, async () => assert.equal(await probe.run(name, filter), errno));
  }
});

test('the calls Node and glibc need pass the filter: a Unix socket, a plain clone, personality(PER_LINUX)', { skip: NO_COMPILER }, async () => {
  for (const name of ALLOWED) assert.equal(await probe.run(name, filter), 'ok', name);
});

test('without the filter the same sandbox lets each provable call through, or fails it otherwise: the filter is what refused it', { skip: NO_COMPILER }, async (t) => {
  for (const { probe: name, errno, provable } of CASES) {
    await t.test(name, { skip: !provable && 'the kernel may refuse it with the same errno (no capabilities in the sandbox)' }, async () => {
      assert.notEqual(await probe.run(name, undefined), errno);
    });
  }
});

test("a filter built without one call's rules lets that call do what the kernel alone does: a dropped rule is caught", { skip: NO_COMPILER }, async (t) => {
  for (const { probe: name, errno, syscall, provable } of CASES) {
    await t.test(`${name} without the ${syscall} rules`, async () => {
      const tampered = seccompFilter(process.arch, SECCOMP_RULES.filter((rule) => rule.syscall !== syscall));
      assert.ok(tampered.ok);
      const [withoutRule, withoutFilter] = await Promise.all([probe.run(name, tampered.program), probe.run(name, undefined)]);
      assert.equal(withoutRule, withoutFilter);
      if (provable) assert.notEqual(withoutRule, errno);
    });
  }
});
