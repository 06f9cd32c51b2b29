/**
 * The wire types (src/k8s/wire.ts): generated from the API field data and up to date, with the field names as the
 * API writes them, and the mapping of cdk8s L1 types to their serialized form.
 */

import { k8s } from 'cdk8s-plus-28';
import { renderWireTypes } from '../../scripts/gen-wire-types';
import { Wire, WireContainerPort, WireDaemonSet, WirePodSpec } from '../../src/k8s/wire';

/** `true` when `A` and `B` are the same type, else `false` (checked at compile time by the assignments below). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

describe('the wire types', () => {
  test('GIVEN the field data WHEN the wire types are rendered THEN the committed file is the same (regenerate with `npx tsx scripts/gen-wire-types.ts`)', () => {
    const fs = jest.requireActual<typeof import('fs')>('fs');
    const committed = fs.readFileSync(require.resolve('../../src/k8s/wire.generated.ts'), 'utf8');
    expect(committed).toBe(renderWireTypes());
  });

  test('GIVEN the rendered types THEN fields carry their wire names and every object type reached is declared', () => {
    const text = renderWireTypes();
    const block = (name: string) =>
      text.slice(text.indexOf(`export interface ${name} {`), text.indexOf('\n}\n', text.indexOf(`export interface ${name} {`)));
    expect(block('WirePodSpec')).toContain('readonly hostPID?: boolean;');
    expect(block('WirePodSpec')).toContain('readonly setHostnameAsFQDN?: boolean;');
    expect(block('WirePodSpec')).not.toContain('hostPid');
    expect(block('WireContainerPort')).toContain('readonly hostIP?: string;');
    const declared = new Set([...text.matchAll(/^export interface (\w+) \{/gm)].map((m) => m[1]));
    const used = new Set([...text.matchAll(/\b(Wire\w+)\b/g)].map((m) => m[1]));
    expect([...used].filter((u) => !declared.has(u))).toEqual([]);
  });

  test('GIVEN cdk8s L1 types WHEN mapped with Wire THEN quantities, int-or-strings and dates become their JSON values', () => {
    // Compile-time checks: each constant only type-checks when the mapping is as stated.
    const quantity: Same<Wire<k8s.Quantity>, number | string> = true;
    const intOrString: Same<Wire<k8s.IntOrString>, number | string> = true;
    const date: Same<Wire<Date>, string> = true;
    const header: Same<Wire<k8s.HttpHeader>, { readonly name: string; readonly value: string }> = true;
    const limits: Same<Wire<k8s.ResourceRequirements>['limits'], { [key: string]: number | string } | undefined> = true;
    expect([quantity, intOrString, date, header, limits]).toEqual([true, true, true, true, true]);
  });

  test('GIVEN a manifest-shaped object THEN it is a WireDaemonSet and its port a WireContainerPort', () => {
    const port: WireContainerPort = { containerPort: 9100, hostIP: '127.0.0.1', hostPort: 9100, protocol: 'TCP' };
    const pod: WirePodSpec = { hostPID: true, containers: [{ name: 'agent', ports: [port] }] };
    const ds: WireDaemonSet = { apiVersion: 'apps/v1', kind: 'DaemonSet', spec: { template: { spec: pod } } };
    expect(ds.spec?.template?.spec?.containers?.[0].ports?.[0].hostIP).toBe('127.0.0.1');
  });
});
