import { App } from 'cdk8s';
import { buildPlatform } from './platform';
import { synthesize } from './synthesize';

const app = new App();
buildPlatform(app);
synthesize(app);
