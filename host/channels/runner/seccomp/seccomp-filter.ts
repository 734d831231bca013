/**
 * The seccomp program a sandboxed runner starts under (bubblewrap's `--seccomp FD` loads it just
 * before it starts Node): the rule table compiled to classic BPF for one architecture. It checks
 * the calling ABI first: a system call's number means something else in another ABI (i386 calls
 * on x86_64 through `int 0x80`, x32), so calls of any ABI but the native one are refused whole.
 * Then each rule's call by number, its argument tests, and by default the call is allowed.
 */
import { assembleBpf, type BpfStep } from './bpf-program.ts';
import { ERRNO, SECCOMP_RULES, type ArgTest, type SeccompRule } from './seccomp-rules.ts';
import { syscallNumber, type SyscallArch, type SyscallName } from './syscall-numbers.ts';

export type SeccompFilter = { ok: true; program: Buffer } | { ok: false; reason: string };

interface ArchTarget {
  /** AUDIT_ARCH_* of `seccomp_data.arch`. */
  audit: number;
}

const ARCHES: Record<SyscallArch, ArchTarget> = {
  x64: { audit: 0xc000_003e },
  arm64: { audit: 0xc000_00b7 },
};

/**
 * The first call number past those the rules were written against (Linux 6.18's last is 470, the
 * same on both architectures). Calls a later kernel adds are refused as if absent (ENOSYS), so
 * new kernel surface reaches no runner before it is reviewed; glibc and libuv probe new calls and
 * fall back on ENOSYS. On x86_64 this also refuses the x32 ABI, whose calls share the native arch
 * value and are told apart by bit 30 of the number.
 */
export const FIRST_UNREVIEWED_NR = 471;

// Offsets in struct seccomp_data; each argument is a u64, its low word first (little-endian).
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
const argWord = (arg: number, word: 'low' | 'high') => 16 + 8 * arg + (word === 'high' ? 4 : 0);

const SECCOMP_RET_ALLOW = 0x7fff_0000;
const SECCOMP_RET_ERRNO = 0x0005_0000;
const refuse = (errno: number) => (SECCOMP_RET_ERRNO | errno) >>> 0;
/** What a call of another ABI gets: as if the kernel had no such call. */
const FOREIGN_ABI = refuse(ERRNO.ENOSYS);

/**
 * The program for `arch` (Node's name: `x64`, `arm64`), or why there is none. `rules` defaults to
 * the runner's table; tests pass others.
 */
export function seccompFilter(arch: string = process.arch, rules: readonly SeccompRule[] = SECCOMP_RULES): SeccompFilter {
  if (!Object.hasOwn(ARCHES, arch)) return { ok: false, reason: `seccomp filter: architecture ${arch} is not supported` };
  try {
    return { ok: true, program: assembleBpf(filterSteps(arch as SyscallArch, rules)) };
  } catch (error) {
    return { ok: false, reason: `seccomp filter: ${(error as Error).message}` };
  }
}

function filterSteps(arch: SyscallArch, rules: readonly SeccompRule[]): BpfStep[] {
  const { audit } = ARCHES[arch];
  const steps: BpfStep[] = [
    { kind: 'load', offset: ARCH_OFFSET },
    { kind: 'jump', test: 'eq', k: audit, ifTrue: 'native-abi' },
    { kind: 'return', k: FOREIGN_ABI },
    { kind: 'label', name: 'native-abi' },
    { kind: 'load', offset: NR_OFFSET },
  ];
  steps.push({ kind: 'jump', test: 'ge', k: FIRST_UNREVIEWED_NR, ifFalse: 'rules' }, { kind: 'return', k: FOREIGN_ABI }, { kind: 'label', name: 'rules' });
  for (const [syscall, group] of groupBySyscall(rules)) {
    const nr = syscallNumber(syscall, arch);
    if (nr !== undefined) steps.push(...syscallSteps(syscall, nr, group));
  }
  steps.push({ kind: 'return', k: SECCOMP_RET_ALLOW });
  return steps;
}

/** One block per call, its rules in table order: each block's jumps stay short. */
function groupBySyscall(rules: readonly SeccompRule[]): Map<SyscallName, SeccompRule[]> {
  const groups = new Map<SyscallName, SeccompRule[]>();
  for (const rule of rules) groups.set(rule.syscall, [...(groups.get(rule.syscall) ?? []), rule]);
  return groups;
}

/**
 * `nr`'s block: A holds the number on entry, and a call of another number skips the block. Inside,
 * the first rule whose test holds refuses the call; when none does, the call is allowed (another
 * block cannot match it).
 */
function syscallSteps(syscall: SyscallName, nr: number, rules: SeccompRule[]): BpfStep[] {
  const next = `after-${syscall}`;
  const steps: BpfStep[] = [{ kind: 'jump', test: 'eq', k: nr, ifFalse: next }];
  const refusals: BpfStep[] = [];
  for (const [index, rule] of rules.entries()) {
    if (!rule.when) {
      steps.push({ kind: 'return', k: refuse(ERRNO[rule.errno]) });
      break;
    }
    const refused = `${syscall}-refused-${index}`;
    steps.push(...testSteps(rule.when, refused));
    refusals.push({ kind: 'label', name: refused }, { kind: 'return', k: refuse(ERRNO[rule.errno]) });
  }
  if (steps.at(-1)?.kind !== 'return') steps.push({ kind: 'return', k: SECCOMP_RET_ALLOW });
  return [...steps, ...refusals, { kind: 'label', name: next }];
}

/** Goes to `refused` when the test holds, else on to the next instruction. */
function testSteps(when: ArgTest, refused: string): BpfStep[] {
  const low: BpfStep = { kind: 'load', offset: argWord(when.arg, 'low') };
  switch (when.test) {
    case 'any-bit':
      return [low, { kind: 'jump', test: 'set', k: when.mask, ifTrue: refused }];
    case 'equals':
      return [low, { kind: 'jump', test: 'eq', k: when.value, ifTrue: refused }];
    case 'not-equals':
      return [low, { kind: 'jump', test: 'eq', k: when.value, ifFalse: refused }];
    case 'not-equals-64':
      return [
        low,
        { kind: 'jump', test: 'eq', k: when.value, ifFalse: refused },
        { kind: 'load', offset: argWord(when.arg, 'high') },
        { kind: 'jump', test: 'eq', k: 0, ifFalse: refused },
      ];
  }
}
