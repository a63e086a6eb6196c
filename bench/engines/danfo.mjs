// danfo.js: pandas-style groupby().agg(), merge(), sortValues(), query(). The package's CSV
// reader is the browser one (it fetches a URL), so CSV text is parsed with papaparse, the parser
// danfo itself uses, with the options danfo passes it, and handed to the DataFrame constructor.
// Not expressible in danfo: top-2 per group (q8), correlation (q9), multi-key sort, row dedupe.
import * as dfd from 'danfojs';
import Papa from 'papaparse';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checksumOf } from '../lib/questions.mjs';

function readCsv(path) {
  const { data } = Papa.parse(readFileSync(path, 'utf8'), { header: true, dynamicTyping: true, skipEmptyLines: true });
  return new dfd.DataFrame(data);
}

/** groupby().agg() with the answer's columns renamed to the benchmark's names. */
function agg(x, keys, spec, names) {
  const out = x.groupby(keys).agg(spec);
  return out.rename(names);
}

export default {
  name: 'danfo',
  version: () => `danfojs ${JSON.parse(readFileSync(new URL('../../node_modules/danfojs/package.json', import.meta.url))).version}`,
  async load(suite, dataset) {
    const t = dataset.tables;
    if (suite === 'join') return { x: readCsv(t.x.csv), small: readCsv(t.small.csv), medium: readCsv(t.medium.csv), big: readCsv(t.big.csv) };
    return { x: readCsv(t.x.csv), csvPath: t.x.csv };
  },
  check(ans, measures) {
    const rows = ans.shape[0];
    return {
      rows,
      chk: checksumOf(measures, rows, (name, at) => {
        const values = ans[name].values.map((v) => (Number.isNaN(v) ? null : v));
        return at === null ? values : values[at];
      }),
    };
  },
  questions: {
    groupby: {
      q1: ({ x }) => agg(x, ['id1'], { v1: 'sum' }, { v1_sum: 'v1' }),
      q2: ({ x }) => agg(x, ['id1', 'id2'], { v1: 'sum' }, { v1_sum: 'v1' }),
      q3: ({ x }) => agg(x, ['id3'], { v1: 'sum', v3: 'mean' }, { v1_sum: 'v1', v3_mean: 'v3' }),
      q4: ({ x }) => agg(x, ['id4'], { v1: 'mean', v2: 'mean', v3: 'mean' }, { v1_mean: 'v1', v2_mean: 'v2', v3_mean: 'v3' }),
      q5: ({ x }) => agg(x, ['id6'], { v1: 'sum', v2: 'sum', v3: 'sum' }, { v1_sum: 'v1', v2_sum: 'v2', v3_sum: 'v3' }),
      q6: ({ x }) => agg(x, ['id4', 'id5'], { v3: ['median', 'std'] }, { v3_median: 'median_v3', v3_std: 'sd_v3' }),
      q7: ({ x }) => {
        const g = x.groupby(['id3']).agg({ v1: 'max', v2: 'min' });
        return g.addColumn('range_v1_v2', g['v1_max'].sub(g['v2_min']));
      },
      q10: ({ x }) => agg(x, ['id1', 'id2', 'id3', 'id4', 'id5', 'id6'], { v3: ['sum', 'count'] }, { v3_sum: 'v3', v3_count: 'count' }),
    },
    join: {
      q1: ({ x, small }) => dfd.merge({ left: x, right: small, on: ['id1'], how: 'inner' }),
      q2: ({ x, medium }) => dfd.merge({ left: x, right: medium, on: ['id2'], how: 'inner' }),
      q3: ({ x, medium }) => dfd.merge({ left: x, right: medium, on: ['id2'], how: 'left' }),
      q4: ({ x, medium }) => dfd.merge({ left: x, right: medium, on: ['id5'], how: 'inner' }),
      q5: ({ x, big }) => dfd.merge({ left: x, right: big, on: ['id3'], how: 'inner' }),
    },
    micro: {
      sort_int64: ({ x }) => x.sortValues('k'),
      filter: ({ x }) => x.query(x['a'].gt(0).and(x['s'].eq('x'))),
      csv_read: ({ csvPath }) => readCsv(csvPath),
      csv_write: ({ x }) => {
        const path = join(tmpdir(), `gpudf-bench-danfo-${process.pid}.csv`);
        writeFileSync(path, dfd.toCSV(x));
        unlinkSync(path);
        return x;
      },
    },
  },
};
