/**
 * Kubernetes name and label grammar (apimachinery `pkg/util/validation`), shared by construct
 * validation and the policy rules so that one implementation decides everywhere.
 *
 * Every function returns `undefined` when the value is valid, or a short sentence saying why it is not.
 */

import { isIP } from 'net';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const PORT_NAME_CHARS = /^[-a-z0-9]+$/;
const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/** Why `value` is not a DNS-1123 label (lower-case alphanumerics and '-', at most 63 characters), or `undefined`. */
export function dns1123LabelError(value: string): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return 'must not be empty';
  if (value.length > 63) return `must be at most 63 characters (has ${value.length})`;
  if (!DNS1123_LABEL.test(value)) {
    return "must consist of lower-case alphanumeric characters or '-', and start and end with an alphanumeric character (DNS-1123 label)";
  }
  return undefined;
}

/**
 * Why `value` is not a DNS-1035 label (a DNS-1123 label that starts with a letter: Service names), or `undefined`.
 */
export function dns1035LabelError(value: string): string | undefined {
  const error = dns1123LabelError(value);
  if (error) return error;
  if (!/^[a-z]/.test(value)) return 'must start with a lower-case letter (DNS-1035 label)';
  return undefined;
}

/** Why `value` is not a DNS-1123 subdomain (dot-separated DNS-1123 labels, at most 253 characters), or `undefined`. */
export function dns1123SubdomainError(value: string): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return 'must not be empty';
  if (value.length > 253) return `must be at most 253 characters (has ${value.length})`;
  for (const part of value.split('.')) {
    if (part.length === 0 || part.length > 63 || !DNS1123_LABEL.test(part)) {
      return "must consist of lower-case alphanumeric characters, '-' or '.', and each dot-separated part must start and end with an alphanumeric character (DNS-1123 subdomain)";
    }
  }
  return undefined;
}

/**
 * Why `value` is not a qualified name (a label key, annotation key or taint key): an optional DNS-1123
 * subdomain prefix and '/', then a name of at most 63 characters. Returns `undefined` when valid.
 */
export function qualifiedNameError(value: string): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return 'must not be empty';
  const parts = value.split('/');
  if (parts.length > 2) return "may contain at most one '/'";
  let name = value;
  if (parts.length === 2) {
    const [prefix, rest] = parts;
    if (prefix.length === 0) return "prefix before '/' must not be empty";
    const prefixError = dns1123SubdomainError(prefix);
    if (prefixError) return `prefix '${prefix}' ${prefixError}`;
    name = rest;
  }
  if (name.length === 0) return 'name part must not be empty';
  if (name.length > 63) return `name part must be at most 63 characters (has ${name.length})`;
  if (!QUALIFIED_NAME_PART.test(name)) {
    return "name part must consist of alphanumeric characters, '-', '_' or '.', and start and end with an alphanumeric character";
  }
  return undefined;
}

/** Why `value` is not a valid label value (empty, or at most 63 characters of the qualified-name alphabet), or `undefined`. */
export function labelValueError(value: string): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length > 63) return `must be at most 63 characters (has ${value.length})`;
  if (!LABEL_VALUE.test(value)) {
    return "must be empty or consist of alphanumeric characters, '-', '_' or '.', and start and end with an alphanumeric character";
  }
  return undefined;
}

/** Why `value` is not a valid container port name (IANA service name: ≤15 chars, [-a-z0-9], a letter, no '--'), or `undefined`. */
export function portNameError(value: string): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return 'must not be empty';
  if (value.length > 15) return `must be at most 15 characters (has ${value.length})`;
  if (!PORT_NAME_CHARS.test(value)) return "must contain only lower-case alphanumeric characters and '-'";
  if (!/[a-z]/.test(value)) return 'must contain at least one letter';
  if (value.includes('--')) return "must not contain consecutive '-'";
  if (value.startsWith('-') || value.endsWith('-')) return "must not begin or end with '-'";
  return undefined;
}

/** Why `value` is not a valid environment variable name for Kubernetes 1.28 (`[-._a-zA-Z][-._a-zA-Z0-9]*`), or `undefined`. */
export function envVarNameError(value: string): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return 'must not be empty';
  if (!ENV_VAR_NAME.test(value)) {
    return "must consist of alphabetic characters, digits, '_', '-' or '.', and must not start with a digit";
  }
  return undefined;
}

/**
 * Why `value` is not a valid environment variable name under relaxed validation (`RelaxedEnvironmentVariableValidation`,
 * beta and on by default from Kubernetes 1.32): any printable ASCII character except `=`, or `undefined`.
 */
export function relaxedEnvVarNameError(value: string): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return 'must not be empty';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x3d) return "must consist of printable ASCII characters other than '='";
  }
  return undefined;
}

/** Why `value` is not an IPv4 or IPv6 CIDR (`10.0.0.0/8`, `fd00::/8`), as a NetworkPolicy `ipBlock` takes, or `undefined`. */
export function cidrError(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  const [ip, bits, ...rest] = value.split('/');
  const family = isIP(ip ?? '');
  if (rest.length > 0 || bits === undefined || family === 0 || !/^[0-9]{1,3}$/.test(bits)) {
    return 'must be an IP network in CIDR notation (e.g. "10.0.0.0/8" or "fd00::/8")';
  }
  if (Number(bits) > (family === 4 ? 32 : 128)) return `prefix length must be at most ${family === 4 ? 32 : 128}`;
  return undefined;
}

const WINDOWS_NETBIOS_DOMAIN = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/;
const WINDOWS_DNS_DOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/i;
const WINDOWS_USER_INVALID_CHARS = /["/\\:;|=,+*?<>@[\]]/;

/**
 * Why `value` is not a `windowsOptions.runAsUserName` the 1.28 API server accepts (`[DOMAIN\]USER`: no control
 * characters, at most one `\`, a user of at most 104 characters without `"/\:;|=,+*?<>@[]` and not only dots and
 * spaces, a NetBIOS or DNS domain of at most 256 characters), or `undefined`.
 */
export function windowsUserNameError(value: string): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return 'must not be empty';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'must not contain control characters';
  const parts = value.split('\\');
  if (parts.length > 2) return "may contain at most one '\\' (DOMAIN\\USER)";
  const [domain, user] = parts.length === 2 ? parts : [undefined, parts[0]];
  if (user.length === 0) return 'must name a user after the domain';
  if (user.length > 104) return `the user must be at most 104 characters (has ${user.length})`;
  if (WINDOWS_USER_INVALID_CHARS.test(user)) return 'the user must not contain any of "/\\:;|=,+*?<>@[]';
  if (/^[. ]+$/.test(user)) return 'the user must not consist only of dots and spaces';
  if (domain !== undefined) {
    if (domain.length > 256) return `the domain must be at most 256 characters (has ${domain.length})`;
    if (!WINDOWS_NETBIOS_DOMAIN.test(domain) && !WINDOWS_DNS_DOMAIN.test(domain))
      return 'the domain must be a NetBIOS name (at most 15 characters) or a DNS name';
  }
  return undefined;
}
