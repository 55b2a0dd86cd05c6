/**
 * The Engine API over IPC ({@code --ipc-path}): {@link io.hexstream.server.ipc.IpcServer}, a Unix domain socket through
 * Netty's native epoll transport, mode 600, its own connection limit; no JWT, the file's permissions are the gate
 * ({@code authentication.md}). A connection carries newline-delimited JSON-RPC
 * ({@link io.hexstream.server.ipc.IpcPipeline}): each line a request or batch, answered in order through a
 * {@link io.hexstream.server.message.MessageExchange}, each reply its JSON document streamed in the chunks HTTP's are,
 * then a line feed ({@link io.hexstream.server.ipc.ReplyLine}); a reply's own bytes never hold a raw line feed (the
 * codec's JSON has no whitespace between tokens and escapes control characters in strings).
 */
package io.hexstream.server.ipc;
