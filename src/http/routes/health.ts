/** `GET /health`: 200 `{ "status": "ok" }` while the server runs (a reverse proxy's or a monitor's check). */
import type { FastifyPluginAsync } from 'fastify';

export const healthRoute: FastifyPluginAsync = (app) => {
	app.get('/health', (_request, reply) => reply.send({ status: 'ok' }));
	return Promise.resolve();
};
