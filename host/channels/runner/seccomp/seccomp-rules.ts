/**
 * The system calls a channel runner is refused, whatever its namespaces and permission model
 * already stop: each is kernel surface plugin code has no use for, and several have been the way
 * out of sandboxes like this one (user namespaces, io_uring, eBPF, perf, userfaultfd). It holds
 * what desktop application sandboxes refuse, stricter on sockets (no family but AF_UNIX), plus
 * loading kernel code, reading other processes' memory, file handles and io_uring.
 *
 * Every refusal is an errno, never a kill: a call Node makes by chance must fail as the kernel
 * would make it fail, not end the runner. Nothing here is a call Node, V8 or libuv cannot do
 * without: Node 26 calls `clone3` and `io_uring_setup` as it starts, and on ENOSYS glibc falls
 * back to `clone` (inspected below) and libuv to its thread pool.
 */
import type { SyscallName } from './syscall-numbers.ts';

/** Errno values, the same on x86_64 and aarch64 (the generic table). */
export const ERRNO = { EPERM: 1, ENOSYS: 38, EAFNOSUPPORT: 97 } as const;
export type ErrnoName = keyof typeof ERRNO;

export type ArgIndex = 0 | 1 | 2 | 3 | 4 | 5;

/**
 * Which calls a rule refuses, by one argument. Arguments are 64-bit; the kernel reads `int` and
 * `unsigned int` ones (a socket's family, an ioctl's command, clone's flags) from their low 32
 * bits only, so those tests look at the low word alone: high bits a caller sets cannot hide a
 * value from the filter that the kernel would still act on.
 */
export type ArgTest =
  /** The low word has any bit of `mask` set. */
  | { arg: ArgIndex; test: 'any-bit'; mask: number }
  /** The low word is `value`. */
  | { arg: ArgIndex; test: 'equals'; value: number }
  /** The low word is not `value`. */
  | { arg: ArgIndex; test: 'not-equals'; value: number }
  /** The whole 64-bit argument is not `value` (which fits in 32 bits). */
  | { arg: ArgIndex; test: 'not-equals-64'; value: number };

export interface SeccompRule {
  syscall: SyscallName;
  errno: ErrnoName;
  /** Absent: every call of `syscall` is refused. */
  when?: ArgTest;
  why: string;
}

const AF_UNIX = 1;
const PR_SET_PDEATHSIG = 1;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
/**
 * Every namespace flag: NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, and NEWTIME
 * (0x80). In clone's flags the low byte is the exit signal, so 0x80 there is a signal above 64,
 * which the kernel refuses anyway: testing it costs no legitimate call.
 */
export const CLONE_NAMESPACE_FLAGS = 0x0002_0000 | 0x0200_0000 | 0x0400_0000 | 0x0800_0000 | 0x1000_0000 | 0x2000_0000 | 0x4000_0000 | 0x80;

const always = (syscall: SyscallName, errno: ErrnoName, why: string): SeccompRule => ({ syscall, errno, why });

export const SECCOMP_RULES: readonly SeccompRule[] = [
  // No new namespaces, no mounts: the sandbox's walls stay where bubblewrap put them.
  always('unshare', 'EPERM', 'a namespace of its own (a nested user namespace is the usual way in to kernel bugs)'),
  always('setns', 'EPERM', 'entering another namespace'),
  { syscall: 'clone', errno: 'EPERM', when: { arg: 0, test: 'any-bit', mask: CLONE_NAMESPACE_FLAGS }, why: 'a child in new namespaces' },
  // clone3 passes its flags in memory, where a filter cannot look: glibc falls back to clone.
  always('clone3', 'ENOSYS', 'flags a filter cannot inspect'),
  always('mount', 'EPERM', 'mounting'),
  always('umount2', 'EPERM', 'unmounting'),
  always('pivot_root', 'EPERM', 'changing the root'),
  always('chroot', 'EPERM', 'changing the root'),
  // The new mount API answers ENOSYS, as on a kernel without it, so tools fall back to mount(2).
  always('open_tree', 'ENOSYS', 'the new mount API'),
  always('move_mount', 'ENOSYS', 'the new mount API'),
  always('fsopen', 'ENOSYS', 'the new mount API'),
  always('fsconfig', 'ENOSYS', 'the new mount API'),
  always('fsmount', 'ENOSYS', 'the new mount API'),
  always('fspick', 'ENOSYS', 'the new mount API'),
  always('mount_setattr', 'ENOSYS', 'the new mount API'),
  always('open_tree_attr', 'ENOSYS', 'the new mount API'),
  always('listmount', 'ENOSYS', 'the new mount API (listing mounts)'),
  always('statmount', 'ENOSYS', 'the new mount API (reading a mount)'),
  // Other processes, and its own under a debugger's eye.
  always('ptrace', 'EPERM', 'tracing'),
  always('process_vm_readv', 'EPERM', "reading another process's memory"),
  always('process_vm_writev', 'EPERM', "writing another process's memory"),
  always('kcmp', 'EPERM', "comparing another process's kernel objects"),
  always('pidfd_getfd', 'EPERM', "taking another process's file descriptors"),
  // The runner is its sandbox's first process (no reaper above it), and the signal its parent's
  // death sends it is what ends the sandbox when the host kills bubblewrap or dies: code that
  // cleared it would outlive both, out of every watchdog's sight.
  { syscall: 'prctl', errno: 'EPERM', when: { arg: 0, test: 'equals', value: PR_SET_PDEATHSIG }, why: 'changing the signal its parent\'s death sends it (what ends the sandbox with the host)' },
  { syscall: 'personality', errno: 'EPERM', when: { arg: 0, test: 'not-equals-64', value: 0 }, why: 'an execution domain other than PER_LINUX (e.g. no address randomisation)' },
  // Kernel surface with a long record of exploits, and no use to a channel.
  always('perf_event_open', 'EPERM', 'profiling'),
  always('bpf', 'EPERM', 'eBPF programs and maps'),
  always('userfaultfd', 'EPERM', 'stalling the kernel on a page fault'),
  always('io_uring_setup', 'ENOSYS', 'io_uring (libuv falls back to its thread pool)'),
  always('io_uring_enter', 'ENOSYS', 'io_uring'),
  always('io_uring_register', 'ENOSYS', 'io_uring'),
  always('add_key', 'EPERM', 'the kernel keyring'),
  always('keyctl', 'EPERM', 'the kernel keyring'),
  always('request_key', 'EPERM', 'the kernel keyring'),
  always('modify_ldt', 'EPERM', 'the x86 local descriptor table'),
  // Kernel code and the machine's own state.
  always('init_module', 'EPERM', 'loading a kernel module'),
  always('finit_module', 'EPERM', 'loading a kernel module'),
  always('delete_module', 'EPERM', 'unloading a kernel module'),
  always('kexec_load', 'EPERM', 'loading a new kernel'),
  always('kexec_file_load', 'EPERM', 'loading a new kernel'),
  always('syslog', 'EPERM', "the kernel's log"),
  always('acct', 'EPERM', 'process accounting'),
  always('quotactl', 'EPERM', 'disk quotas'),
  always('quotactl_fd', 'EPERM', 'disk quotas'),
  always('uselib', 'EPERM', 'an obsolete way to load code'),
  // Memory placement across NUMA nodes: not a channel's business, and a source of kernel bugs.
  always('move_pages', 'EPERM', 'NUMA placement'),
  always('mbind', 'EPERM', 'NUMA placement'),
  always('get_mempolicy', 'EPERM', 'NUMA placement'),
  always('set_mempolicy', 'EPERM', 'NUMA placement'),
  always('set_mempolicy_home_node', 'EPERM', 'NUMA placement'),
  always('migrate_pages', 'EPERM', 'NUMA placement'),
  // Files by handle skip the path walk, and with it the mount namespace's view.
  always('open_by_handle_at', 'EPERM', 'opening a file by handle'),
  always('name_to_handle_at', 'EPERM', 'naming a file by handle'),
  // Typing into, or pasting from, a terminal the runner might share.
  { syscall: 'ioctl', errno: 'EPERM', when: { arg: 1, test: 'equals', value: TIOCSTI }, why: "typing into the terminal's input" },
  { syscall: 'ioctl', errno: 'EPERM', when: { arg: 1, test: 'equals', value: TIOCLINUX }, why: "a virtual console's copy and paste" },
  // Only Unix sockets: the runner has no network (its egress is the host's), and no packet,
  // netlink or other family the kernel would otherwise parse for it.
  { syscall: 'socket', errno: 'EAFNOSUPPORT', when: { arg: 0, test: 'not-equals', value: AF_UNIX }, why: 'a socket of a family other than AF_UNIX' },
  { syscall: 'socketpair', errno: 'EAFNOSUPPORT', when: { arg: 0, test: 'not-equals', value: AF_UNIX }, why: 'a socket pair of a family other than AF_UNIX' },
];
