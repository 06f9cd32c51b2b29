import { importFixture } from './support';
importFixture(process.argv[2]).then((r) => {
  console.log(r.report.unexplained, JSON.stringify(r.report.problems).slice(0, 1500));
  for (const s of r.report.services)
    for (const d of s.differences ?? [])
      if (d.class === 'unexplained') console.log(d.path, JSON.stringify(d.input), JSON.stringify(d.output));
});
