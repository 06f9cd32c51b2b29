import { carryProblems, derivedFrom, joined, madeFrom, merged, ProblemCollector, PropProblem, userParts } from '../../src/k8s/problems';

function fields(problems: ProblemCollector): string[] {
  const out: PropProblem[] = [];
  problems.forEach((p) => out.push(p));
  return out.map((p) => p.field);
}

describe('ProblemCollector field provenance', () => {
  test('GIVEN parts made from user fields WHEN problems are found at internal paths THEN they are reported at those fields', () => {
    // GIVEN: the user's list follows two of the preset's own, and one member holds the user's `port`
    const own = [{ path: '/a' }, { path: '/b' }];
    const user = [{ path: 'x' }, { path: 'y' }];
    const container = {
      ports: [madeFrom({ containerPort: 1 }, 'port', 'containerPort')],
      hostPaths: joined(own, userParts(user, 'extra')),
    };
    const problems = new ProblemCollector();
    carryProblems({ containers: [container] }, problems);
    // WHEN
    problems.add('containers[0].hostPaths[3].path', 'y', 'is bad', 'fix it');
    problems.add('containers[0].hostPaths[1].path', '/b', 'is bad', 'fix it');
    problems.add('containers[0].ports[0].containerPort', 1, 'is bad', 'fix it');
    // THEN
    expect(fields(problems)).toEqual(['extra[1].path', 'containers[0].hostPaths[1].path', 'port']);
  });

  test('GIVEN a part derived from a field WHEN that field has a problem THEN the part adds none, ELSE it is reported where it is', () => {
    const make = () => ({ name: 'derived', paths: [derivedFrom({ path: '/p' }, 'driver')] });
    const refused = new ProblemCollector();
    refused.add('driver', 'Bad', 'is bad', 'fix it');
    carryProblems(make(), refused);
    refused.add('paths[0].path', '/p', 'is bad', 'fix it');
    expect(fields(refused)).toEqual(['driver']);

    const sound = new ProblemCollector();
    carryProblems(make(), sound);
    sound.add('paths[0].path', '/p', 'is bad', 'fix it');
    expect(fields(sound)).toEqual(['paths[0].path']);
  });

  test('GIVEN a merged map WHEN a user key and a preset key with its own origin have problems THEN each is named by its origin', () => {
    const preset = madeFrom({ NODE: 'x' }, 'nodeEnv', 'NODE');
    const problems = new ProblemCollector();
    carryProblems({ env: merged(preset, { 'bad key': 'y' }, 'env') }, problems);
    problems.add('env["NODE"]', 'NODE', 'is bad', 'fix it');
    problems.add('env["bad key"]', 'bad key', 'is bad', 'fix it');
    expect(fields(problems)).toEqual(['nodeEnv', 'env["bad key"]']);
  });

  test('GIVEN the same user object at two places THEN each place keeps its own field (origins are not stored on user objects)', () => {
    const shared = { path: 'x' };
    const problems = new ProblemCollector();
    carryProblems({ a: userParts([shared], 'first'), b: userParts([shared], 'second') }, problems);
    problems.add('b[0].path', 'x', 'is bad', 'fix it');
    problems.add('a[0].path', 'x', 'is bad', 'fix it');
    expect(fields(problems)).toEqual(['second[0].path', 'first[0].path']);
  });
});
