// The ceiling: a bare Fastify route returning a constant, in its own process like the service.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/ping', async () => ({ workspace_name: 'bench' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
