import type { Llm } from '../ports/llm.js';
import type { PageReader } from '../ports/page-reader.js';
import { addModelUsage, emptyUsage, estimateCost, type PriceTable } from '../ports/usage.js';
import type { WebSearch } from '../ports/web-search.js';
import type { Metrics } from './metrics.js';

/** Every answered model call counted by phase, with its estimated cost. */
export function meteredLlm(llm: Llm, metrics: Metrics, prices: PriceTable): Llm {
  return {
    async complete(request) {
      const response = await llm.complete(request);
      const usage = emptyUsage();
      addModelUsage(usage, request.purpose, request.model.name, response.usage);
      metrics.modelCall(
        request.purpose,
        request.model.name,
        response.usage,
        estimateCost(usage, { ...prices, searchPer1k: 0 }),
      );
      return response;
    },
  };
}

/** Searches that failed (an empty result is not a failure); a caller's cancel is not counted. */
export function meteredWebSearch(search: WebSearch, metrics: Metrics): WebSearch {
  return {
    name: search.name,
    async search(query, options) {
      try {
        return await search.search(query, options);
      } catch (error) {
        if (!options.signal.aborted) metrics.toolFailed('web_search', reasonOf(error));
        throw error;
      }
    },
  };
}

/** Page reads that gave nothing readable, by the kind of failure the reader names. */
export function meteredPageReader(reader: PageReader, metrics: Metrics): PageReader {
  return {
    async read(url, options) {
      try {
        const result = await reader.read(url, options);
        if (!result.ok) metrics.toolFailed('open_url', result.kind);
        return result;
      } catch (error) {
        if (!options.signal.aborted) metrics.toolFailed('open_url', reasonOf(error));
        throw error;
      }
    },
  };
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : 'error';
}
