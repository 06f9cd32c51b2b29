import { importFixture } from './support';
importFixture(process.argv[2]).then((r) => {
  console.log(JSON.stringify((r.synthesized as any[]).map((o) => [o.kind, o.metadata])).slice(0, 1500));
  console.log(r.files.get('csi-rbdplugin.ts')?.slice(-1500));
});
