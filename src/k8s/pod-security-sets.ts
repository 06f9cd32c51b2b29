/**
 * The allow-lists of the Pod Security Standards, policy version 1.28 (`k8s.io/pod-security-admission/policy`), shared
 * by the Pod Security evaluator, the tenant admission policy and the lint rules, so that the three cannot drift apart.
 */

/** Capabilities `baseline` lets a container add (`check_capabilities_baseline.go`). */
export const BASELINE_CAPABILITIES: readonly string[] = [
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
];

/** SELinux types `baseline` allows (`check_seLinuxOptions.go`; the empty type is unset). */
export const BASELINE_SELINUX_TYPES: readonly string[] = ['', 'container_t', 'container_init_t', 'container_kvm_t'];

/**
 * The safe sysctls of 1.28 (`check_sysctls.go`): namespaced and isolated per pod, allowed by every kubelet without
 * `--allowed-unsafe-sysctls` and by `baseline` (`net.ipv4.ip_local_reserved_ports` from policy 1.27).
 */
export const SAFE_SYSCTLS: readonly string[] = [
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.ip_local_reserved_ports',
];

/** Seccomp profile types `baseline` and `restricted` allow (`Unconfined` is refused). */
export const ALLOWED_SECCOMP_TYPES: readonly string[] = ['RuntimeDefault', 'Localhost'];

/** The per-container AppArmor annotation of 1.28 (the `appArmorProfile` field exists from 1.30). */
export const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
