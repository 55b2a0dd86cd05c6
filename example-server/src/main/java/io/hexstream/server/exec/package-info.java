/**
 * Executors for work that must not run on an event loop ({@link io.hexstream.server.exec.BoundedExecutor}: a fixed
 * number of threads, a bounded queue): the server's request, ingest and metrics threads and {@code probe}'s work
 * threads. It knows none of the server's other packages.
 */
package io.hexstream.server.exec;
