/**
 * The runtime shape tables of the guardrail and alert constructs name exactly the props their interfaces declare: a
 * prop missing from a table is refused as "not an option" at runtime, a table entry without a prop is dead.
 */
import { namespacePropsShape, guardrailsPropsShape } from '../../src/guardrails/shapes';
import { alertsPropsShape } from '../../src/observability/shapes';
import { propertiesOf } from '../support/props';

describe('shape tables of the guardrail and alert constructs', () => {
  test.each([
    ['NodeServicesNamespaceProps', namespacePropsShape],
    ['NodeServiceGuardrailsProps', guardrailsPropsShape],
    ['NodeServiceAlertsProps', alertsPropsShape],
  ] as const)('GIVEN %s THEN its shape table has exactly its declared props', (iface, shape) => {
    expect(Object.keys(shape()).sort()).toEqual(propertiesOf(iface).sort());
  });
});
