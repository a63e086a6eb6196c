// Arquero: verbs over a column table (groupby + rollup, join, orderby, filter, dedupe). Answers
// are reified (materialised) inside the timed section, since arquero otherwise keeps filters
// and orderings as lazy selections.
import * as aq from 'arquero';
import { readFileSync, writeFileSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checksumOf } from '../lib/questions.mjs';

const { op } = aq;
const readCsv = (path) => aq.fromCSV(readFileSync(path, 'utf8'));

export default {
  name: 'arquero',
  version: () => `arquero ${JSON.parse(readFileSync(new URL('../../node_modules/arquero/package.json', import.meta.url))).version}`,
  async load(suite, dataset) {
    const t = dataset.tables;
    if (suite === 'join') return { x: readCsv(t.x.csv), small: readCsv(t.small.csv), medium: readCsv(t.medium.csv), big: readCsv(t.big.csv) };
    return { x: readCsv(t.x.csv), csvPath: t.x.csv };
  },
  check(ans, measures) {
    const rows = ans.numRows();
    return {
      rows,
      chk: checksumOf(measures, rows, (name, at) => {
        const values = ans.array(name);
        return at === null ? values : values[at];
      }),
    };
  },
  questions: {
    groupby: {
      q1: ({ x }) => x.groupby('id1').rollup({ v1: op.sum('v1') }),
      q2: ({ x }) => x.groupby('id1', 'id2').rollup({ v1: op.sum('v1') }),
      q3: ({ x }) => x.groupby('id3').rollup({ v1: op.sum('v1'), v3: op.mean('v3') }),
      q4: ({ x }) => x.groupby('id4').rollup({ v1: op.mean('v1'), v2: op.mean('v2'), v3: op.mean('v3') }),
      q5: ({ x }) => x.groupby('id6').rollup({ v1: op.sum('v1'), v2: op.sum('v2'), v3: op.sum('v3') }),
      q6: ({ x }) => x.groupby('id4', 'id5').rollup({ median_v3: op.median('v3'), sd_v3: op.stdev('v3') }),
      q7: ({ x }) => x.groupby('id3').rollup({ range_v1_v2: (d) => op.max(d.v1) - op.min(d.v2) }),
      q8: ({ x }) => x.filter((d) => d.v3 != null).groupby('id6').orderby(aq.desc('v3'))
        .filter(() => op.row_number() <= 2).select('id6', 'v3').rename({ v3: 'largest2_v3' }).ungroup().reify(),
      q9: ({ x }) => x.groupby('id2', 'id4').rollup({ r2: (d) => op.pow(op.corr(d.v1, d.v2), 2) }),
      q10: ({ x }) => x.groupby('id1', 'id2', 'id3', 'id4', 'id5', 'id6').rollup({ v3: op.sum('v3'), count: op.count() }),
    },
    join: {
      q1: ({ x, small }) => x.join(small, 'id1'),
      q2: ({ x, medium }) => x.join(medium, 'id2'),
      q3: ({ x, medium }) => x.join_left(medium, 'id2'),
      q4: ({ x, medium }) => x.join(medium, 'id5'),
      q5: ({ x, big }) => x.join(big, 'id3'),
    },
    micro: {
      sort_int64: ({ x }) => x.orderby('k').reify(),
      sort_multi: ({ x }) => x.orderby('s', 'f').reify(),
      filter: ({ x }) => x.filter((d) => d.a > 0 && d.s === 'x').reify(),
      unique: ({ x }) => x.dedupe('s', 'a'),
      csv_read: ({ csvPath }) => readCsv(csvPath),
      csv_write: ({ x }) => {
        const path = join(tmpdir(), `gpudf-bench-arquero-${process.pid}.csv`);
        writeFileSync(path, x.toCSV());
        unlinkSync(path);
        return x;
      },
    },
  },
};
