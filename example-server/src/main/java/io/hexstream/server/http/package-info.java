/**
 * The HTTP front of the Engine API: {@link io.hexstream.server.http.EngineServer} (one event-loop
 * group, up to three ports, the connection limit), {@link io.hexstream.server.http.EngineApiInitializer}
 * (the one pipeline), the head check (path, POST, JWT before any body byte), the idle and write
 * timeouts, and {@code EngineApiHandler} (parse, dispatch, responses in request order, reads paused
 * while too many are unwritten). HTTP concerns only: JSON-RPC is in {@code rpc}, the methods in
 * {@code engine}.
 */
package io.hexstream.server.http;
