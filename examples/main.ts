import { App } from 'cdk8s';
import { buildPlatform } from './platform';

const app = new App();
buildPlatform(app);
app.synth();
