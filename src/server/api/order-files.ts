/** Answers a sales document's PDF or a CSV file (bookkeeping, statistics) as a download (Content-Disposition: attachment). */
import type { FastifyReply } from 'fastify';
import type { DocumentPdf } from '../domain/commerce/order-documents.ts';
import type { CsvFile } from '../domain/csv.ts';

function attachment(reply: FastifyReply, fileName: string, type: string, body: Buffer | string): FastifyReply {
  return reply.type(type).header('Content-Disposition', `attachment; filename="${fileName}"`).send(body);
}

export function sendPdf(reply: FastifyReply, file: DocumentPdf): FastifyReply {
  return attachment(reply, file.fileName, 'application/pdf', file.pdf);
}

export function sendCsv(reply: FastifyReply, file: CsvFile): FastifyReply {
  return attachment(reply, file.fileName, 'text/csv; charset=utf-8', file.csv);
}
