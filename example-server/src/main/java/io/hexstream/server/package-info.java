/**
 * The example Engine API server assembled. {@link io.hexstream.server.ServerOptions} is its configuration (the
 * command-line options, each default once, with their converters); {@code Startup} the quick start-up steps,
 * {@code ServerWiring} the methods, dispatcher and ports wired from the options, {@code MetricsRoute} {@code GET
 * /metrics} as a route (it needs both {@code http} and {@code metrics}, which know nothing of each other's routes),
 * {@code StartupErrors} the one-line text of what failed; and {@link io.hexstream.server.ExampleServer} the server
 * running, made through its builder by the command line ({@code cli}), the tests and the benchmarks alike.
 * {@code docs/architecture.md} maps the packages along a request's path.
 */
package io.hexstream.server;
