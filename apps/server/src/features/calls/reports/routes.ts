import {
  callReportPdfQuerySchema,
  callReportQuerySchema,
  callReportSchema,
  errorBodySchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { monthRange, reportPdf } from './pdf.ts';
import type { ReportsService } from './service.ts';

const tags = ['calls'];

export const callReportsRoutes =
  (reports: ReportsService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = { 400: errorBodySchema, 401: errorBodySchema };

    app.get(
      '/api/calls/reports',
      {
        schema: {
          tags,
          summary:
            'Call reports over a range of days: calls per hour and per day (answered or not, by direction), per queue, agent and trunk',
          querystring: callReportQuerySchema,
          response: { 200: callReportSchema, ...errors },
        },
      },
      (request) => reports.report(request.query),
    );

    app.get(
      '/api/calls/reports/pdf',
      {
        schema: {
          tags,
          summary: "A month's call report as a PDF, in English or Italian",
          querystring: callReportPdfQuerySchema,
        },
      },
      async (request, reply) => {
        const { month, lang, serviceLevel } = request.query;
        const report = await reports.report({ ...monthRange(month), serviceLevel });
        const pdf = await reportPdf(report, lang, month);
        const name = lang === 'it' ? `report-chiamate-${month}.pdf` : `call-report-${month}.pdf`;
        return reply.type('application/pdf').header('content-disposition', `attachment; filename="${name}"`).send(pdf);
      },
    );
  };
