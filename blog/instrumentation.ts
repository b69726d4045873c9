/**
 * Next calls register() once per server process, before serving. With OTEL_EXPORTER_OTLP_ENDPOINT
 * set, Next's own spans (the incoming request, continuing the API's `traceparent`; the route
 * handler that runs the CMS; page rendering) go to the same receiver as the API's, through the
 * same pipeline (src/observability/tracing-provider.ts). Off: nothing of the SDK is loaded.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { readBlogSettings } = await import('../cms/settings')
  const { tracing } = readBlogSettings()
  if (!tracing) return
  const { startTracePipeline } = await import('../src/observability/tracing-provider')
  startTracePipeline(tracing, 'platform-blog')
}
