// gpudf's lazy engine on the TPC-H suite: the same tables as the gpudf engine loads, each query
// from examples/tpch/queries.ts built as one plan over LazyFrames of them (examples/tpch/lazy.ts)
// and collected. Only the TPC-H suite: the db-benchmark questions are single operators.
import gpudf from './gpudf.mjs';
import { QUERIES as TPCH } from '../tpch/answers.mjs';

let lazyQueries = null;

export default {
  ...gpudf,
  name: 'gpudf-lazy',
  async prepare(suite) {
    if (suite !== 'tpch') return;
    const { register } = await import('tsx/esm/api');
    register({ tsconfig: false });
    lazyQueries = (await import('../../examples/tpch/lazy.ts')).QUERIES;
  },
  questions: {
    tpch: Object.fromEntries(TPCH.map(({ id }) => [id, (ctx) => lazyQueries[id](ctx.tables, ctx.sf)])),
  },
};
