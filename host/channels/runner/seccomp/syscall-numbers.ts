/**
 * The numbers of the system calls the seccomp rules name, per architecture, as the kernel's own
 * tables give them (x86_64: arch/x86/entry/syscalls/syscall_64.tbl; aarch64: the generic table,
 * include/uapi/asm-generic/unistd.h). Only these: a filter compares numbers, so a wrong one
 * would leave a call open without a sign. A missing entry means the call does not exist on that
 * architecture (aarch64 has no `uselib` or `modify_ldt`), and a rule naming it applies only where
 * it exists. Neither architecture has a separate `umount`: `umount2` is the only unmount call.
 */

/** The architectures a filter can be built for, by Node's name (`process.arch`). */
export type SyscallArch = 'x64' | 'arm64';

export const SYSCALL_NUMBERS = {
  acct: { x64: 163, arm64: 89 },
  add_key: { x64: 248, arm64: 217 },
  bpf: { x64: 321, arm64: 280 },
  chroot: { x64: 161, arm64: 51 },
  clone: { x64: 56, arm64: 220 },
  clone3: { x64: 435, arm64: 435 },
  delete_module: { x64: 176, arm64: 106 },
  finit_module: { x64: 313, arm64: 273 },
  fsconfig: { x64: 431, arm64: 431 },
  fsmount: { x64: 432, arm64: 432 },
  fsopen: { x64: 430, arm64: 430 },
  fspick: { x64: 433, arm64: 433 },
  get_mempolicy: { x64: 239, arm64: 236 },
  init_module: { x64: 175, arm64: 105 },
  io_uring_enter: { x64: 426, arm64: 426 },
  io_uring_register: { x64: 427, arm64: 427 },
  io_uring_setup: { x64: 425, arm64: 425 },
  ioctl: { x64: 16, arm64: 29 },
  kcmp: { x64: 312, arm64: 272 },
  kexec_file_load: { x64: 320, arm64: 294 },
  kexec_load: { x64: 246, arm64: 104 },
  keyctl: { x64: 250, arm64: 219 },
  mbind: { x64: 237, arm64: 235 },
  migrate_pages: { x64: 256, arm64: 238 },
  modify_ldt: { x64: 154 },
  mount: { x64: 165, arm64: 40 },
  mount_setattr: { x64: 442, arm64: 442 },
  move_mount: { x64: 429, arm64: 429 },
  move_pages: { x64: 279, arm64: 239 },
  name_to_handle_at: { x64: 303, arm64: 264 },
  open_by_handle_at: { x64: 304, arm64: 265 },
  open_tree: { x64: 428, arm64: 428 },
  open_tree_attr: { x64: 467, arm64: 467 },
  listmount: { x64: 458, arm64: 458 },
  statmount: { x64: 457, arm64: 457 },
  perf_event_open: { x64: 298, arm64: 241 },
  personality: { x64: 135, arm64: 92 },
  pidfd_getfd: { x64: 438, arm64: 438 },
  pivot_root: { x64: 155, arm64: 41 },
  prctl: { x64: 157, arm64: 167 },
  process_vm_readv: { x64: 310, arm64: 270 },
  process_vm_writev: { x64: 311, arm64: 271 },
  ptrace: { x64: 101, arm64: 117 },
  quotactl: { x64: 179, arm64: 60 },
  quotactl_fd: { x64: 443, arm64: 443 },
  request_key: { x64: 249, arm64: 218 },
  set_mempolicy: { x64: 238, arm64: 237 },
  set_mempolicy_home_node: { x64: 450, arm64: 450 },
  setns: { x64: 308, arm64: 268 },
  socket: { x64: 41, arm64: 198 },
  socketpair: { x64: 53, arm64: 199 },
  syslog: { x64: 103, arm64: 116 },
  umount2: { x64: 166, arm64: 39 },
  unshare: { x64: 272, arm64: 97 },
  uselib: { x64: 134 },
  userfaultfd: { x64: 323, arm64: 282 },
} as const satisfies Record<string, Partial<Record<SyscallArch, number>>>;

export type SyscallName = keyof typeof SYSCALL_NUMBERS;

/** The call's number on `arch`, or undefined where it does not exist. */
export function syscallNumber(name: SyscallName, arch: SyscallArch): number | undefined {
  const numbers: Partial<Record<SyscallArch, number>> = SYSCALL_NUMBERS[name];
  return numbers[arch];
}
