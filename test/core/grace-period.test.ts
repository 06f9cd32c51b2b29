/**
 * `terminationGracePeriodSeconds` is an int64 in the API: a whole number too large for a JavaScript number to hold
 * exactly is a props problem of the service, not a DaemonSet the API server cannot decode.
 */

import { Construct } from 'constructs';
import { NodeService } from '../../src';
import { errorOf } from '../support/synth';

const containers = [{ name: 'agent', image: 'registry.example.com/agent:1.2.3' }];

describe('terminationGracePeriodSeconds', () => {
  test.each([9223372036854778000, Number.MAX_SAFE_INTEGER + 1])(
    'GIVEN %d seconds WHEN synthesized THEN the props problem names the field and the largest value',
    (seconds) => {
      const message = errorOf((scope: Construct) => {
        new NodeService(scope, 'svc', { name: 'agent', containers, terminationGracePeriodSeconds: seconds });
      });
      expect(message).toContain('terminationGracePeriodSeconds');
      expect(message).toContain(`must be at most ${Number.MAX_SAFE_INTEGER}`);
      expect(message).not.toContain('field-type-invalid');
    },
  );
});
