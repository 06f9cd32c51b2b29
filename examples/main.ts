import { App } from 'cdk8s';
import { buildFleet } from './fleet';
import { buildPlatform } from './platform';
import { synthesize } from './synthesize';

const app = new App();
buildPlatform(app);
synthesize(app);
// The fleet (dist/clusters/<name>/, dist/gitops/), after the single-cluster platform (dist/*.k8s.yaml).
synthesize(buildFleet());
