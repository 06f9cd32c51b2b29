import * as fs from 'fs';
import * as path from 'path';
import { importManifests } from '../../src/adopt';
import { importFixture, REAL_WORLD, RUNTIME } from './support';

const fixtures = fs.readdirSync(REAL_WORLD).filter((f) => f.endsWith('.yaml'));

const DNS = 'the input leaves dnsPolicy unset on the host network, the output sets it: the comment saying so is not written again';
const MOUNT_INDEX = "a writable host path's reason cites the input's volumeMounts index, which the library's mount order changes";
const PATCHED = 'a value the first import carries by an escape-hatch patch (resources) is a typed prop the second time';

/** Fixtures whose second import writes other code than the first (the objects are the same), and why. */
const CODE_DIFFERS: Readonly<Record<string, string>> = {
  'antrea-agent-windows.yaml': `${DNS}; ${PATCHED}`,
  'antrea-agent.yaml': `${DNS}; ${MOUNT_INDEX}`,
  'aws-node.yaml': `${DNS}; ${PATCHED}`,
  'azuredisk-csi-node-windows.yaml': 'the findings carried as suppressions are found on the output, with other messages',
  'calico-node.yaml': `${DNS}; ${PATCHED}`,
  'ceph-csi-rbdplugin.yaml': MOUNT_INDEX,
  'cilium-agent-helm.yaml': `${DNS}; ${MOUNT_INDEX}; ${PATCHED}`,
  'cilium-agent-helm-k8s-1.30.yaml': `${DNS}; ${MOUNT_INDEX}; ${PATCHED}`,
  'datadog-agent-helm.yaml': MOUNT_INDEX,
  'falco-helm.yaml': MOUNT_INDEX,
  'filebeat.yaml': MOUNT_INDEX,
  'flannel.yaml': `${DNS}; ${MOUNT_INDEX}; ${PATCHED}`,
  'fluent-bit-helm.yaml': MOUNT_INDEX,
  'kube-proxy-windows-hostprocess.yaml': DNS,
  'kube-proxy.yaml': `${DNS}; ${MOUNT_INDEX}`,
  'kube-router.yaml': `${DNS}; ${PATCHED}`,
  'metallb-speaker.yaml': DNS,
  'multus-thick.yaml': `${DNS}; ${MOUNT_INDEX}; ${PATCHED}`,
  'node-exporter-helm.yaml': DNS,
  'node-exporter-kube-prometheus.yaml': DNS,
  'promtail.yaml': MOUNT_INDEX,
  'tetragon-helm.yaml': MOUNT_INDEX,
};

/**
 * The files with the lines that must differ made equal: why the kind was chosen (the first input's shape; the second
 * input carries the kind annotation the first import's output declares), and so why the construct was (the inferred
 * kind's allowlists the first time, the declared kind the second); the construct itself is compared.
 */
function comparable(files: ReadonlyMap<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, text] of files)
    out[name] = text.replace(/^( \* Built with \w+ \(kind [a-z-]+\)): .*$/gm, '$1: …').replace(/^( \* Chose \w+): .*$/gm, '$1: …');
  return out;
}

describe('importing the synthesized output again', () => {
  test.each(fixtures)(
    'GIVEN the app imported from %s WHEN its synthesized output is imported again THEN that checks clean, synthesizes the same objects and (unless listed) writes the same code',
    async (f) => {
      const first = await importFixture(path.join(REAL_WORLD, f));
      expect(first.report.unexplained).toBe(0);
      const again = first.synthesized.map((object) => ({ object, file: `test/fixtures/real-world/${f}` }));
      const second = await importManifests(again, { runtime: RUNTIME, check: true });
      expect(second.report.problems).toEqual([]);
      expect(second.report.unexplained).toBe(0);
      expect(second.synthesized).toEqual(first.synthesized);
      // A listed fixture that starts writing the same code is taken off the list.
      if (f in CODE_DIFFERS) expect(comparable(second.files)).not.toEqual(comparable(first.files));
      else expect(comparable(second.files)).toEqual(comparable(first.files));
    },
    120_000,
  );
});
