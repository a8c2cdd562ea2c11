// count.mjs - read a JUnit XML file with junit2json (a JUnit consumer from
// the npm registry) and print what it found, two ways: the counts the
// suites declare in their attributes, and the counts of the <testcase>
// elements themselves. Usage: node count.mjs junit.xml
// Output (one line): suites=N tests=N failures=N errors=N skipped=N
//   declared_tests=N declared_failures=N declared_errors=N declared_skipped=N
import { readFile } from 'node:fs/promises';
import { parse } from 'junit2json';

const file = process.argv[2];
if (!file) {
  console.error('usage: node count.mjs junit.xml');
  process.exit(2);
}

const doc = await parse(await readFile(file, 'utf8'));
if (!doc) {
  console.error(`${file}: junit2json found no test suites`);
  process.exit(1);
}
// a single <testsuite> root or a <testsuites> wrapper
const suites = Array.isArray(doc.testsuite) ? doc.testsuite : [doc];

const n = {
  suites: suites.length, tests: 0, failures: 0, errors: 0, skipped: 0,
  declared_tests: 0, declared_failures: 0, declared_errors: 0, declared_skipped: 0,
};
for (const s of suites) {
  n.declared_tests += s.tests ?? 0;
  n.declared_failures += s.failures ?? 0;
  n.declared_errors += s.errors ?? 0;
  n.declared_skipped += s.skipped ?? 0;
  for (const tc of s.testcase ?? []) {
    n.tests++;
    if (tc.failure?.length) n.failures++;
    else if (tc.error?.length) n.errors++;
    else if (tc.skipped?.length) n.skipped++;
  }
}
console.log(Object.entries(n).map(([k, v]) => `${k}=${v}`).join(' '));
