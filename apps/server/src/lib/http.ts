import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/** Answers 201 Created with the record that `saving` resolves to (a POST that makes one). */
export async function created<T>(reply: FastifyReply, saving: Promise<T>): Promise<T> {
  reply.code(201);
  return saving;
}

/** The params of a route naming one record: `/x/:id`. */
export const idParams = z.object({ id: z.string() });

/** The params of a route naming a user of a buyer or a source: `/x/:id/user/:userId`. */
export const userParams = z.object({ id: z.string(), userId: z.string() });
