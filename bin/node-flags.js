// The Node options the service runs with. `--experimental-async-context-frame` keeps
// AsyncLocalStorage (the request scope of src/shared/request-scope.ts, tracing's context) in V8's
// continuation data instead of async hooks: without it, the request scope turns on promise hooks for
// the whole process, a cost paid by every promise of every request (GET /v1/ping: 47,800 → 51,600
// req/s on 2026-11-27; docs/performance.md). It is Node 24's default. The entry points pass it:
// the shebang of bin/vericase.js, `npm start`, the Docker image's entry point, the test runner and
// the benchmarks (which import this list); `node bin/vericase.js` without it works the same, slower.
export const NODE_FLAGS = ['--experimental-async-context-frame'];
