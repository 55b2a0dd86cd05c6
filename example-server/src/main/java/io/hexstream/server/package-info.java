/**
 * The example Engine API server assembled: {@link io.hexstream.server.ExampleServer} wires the
 * secret, the durable pool, the methods, the dispatcher with its ingest executor and the HTTP server
 * from a {@link io.hexstream.server.ExampleServer.Config}, and {@link io.hexstream.server.Main} is its
 * command line. The README's "Architecture" section maps the packages along a request's path.
 */
package io.hexstream.server;
