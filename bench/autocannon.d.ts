/** The part of autocannon 8 the HTTP benchmark uses (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      amount?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      pipelining?: number;
      /** Seconds to wait for a response. */
      timeout?: number;
    }

    /** hdr-histogram-percentiles-obj figures; latency in milliseconds. */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
      p99_9: number;
    }

    interface Result {
      /** Seconds. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
      statusCodeStats: Record<string, { count: number }>;
      requests: Histogram & { sent: number };
      latency: Histogram;
      throughput: Histogram;
    }

    interface Instance extends PromiseLike<Result> {
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance & Promise<autocannon.Result>;
  export default autocannon;
}
