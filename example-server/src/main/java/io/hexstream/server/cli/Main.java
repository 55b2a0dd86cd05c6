package io.hexstream.server.cli;

import io.hexstream.server.ExampleServer;
import io.hexstream.server.ServerOptions;
import io.hexstream.server.StartupException;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The command line: serve the Engine API (default; its options are {@link ServerOptions}), print a token
 * ({@code token}, {@link TokenCommand}), or ask an endpoint for blobs ({@code probe}, {@link ProbeCommand}). Logs go to
 * stdout; a start-up failure is one line on stderr and exit 1, with the stack trace in the log only at
 * {@code --log-level debug}; an unknown option or a bad value is one line on stderr, then a line pointing at
 * {@code --help}, and exit 2. Ctrl-C and SIGTERM stop the server and exit 0.
 */
@Command(
        name = "hexstream-example-server",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        abbreviateSynopsis = true,
        optionListHeading = "Options:%n",
        description = "A JWT-authenticated Engine API server for engine_getBlobsV1 to V4 (JSON, and binary SSZ on the"
                + " Engine API port), streaming through hexstream, with eth_sendRawTransaction for blob transactions.",
        subcommands = {TokenCommand.class, ProbeCommand.class})
public final class Main implements Callable<Integer> {
    @Mixin
    ServerOptions options;

    @Option(
            names = "--log-level",
            paramLabel = "LEVEL",
            defaultValue = "info",
            description = "error, warn, info, debug or trace; debug also logs the stack trace of a start-up failure"
                    + " (default: ${DEFAULT-VALUE}).")
    LogLevel logLevel;

    public static void main(String[] args) {
        StopSignal.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return ServerOptions.configure(new CommandLine(new Main()))
                .setParameterExceptionHandler(Main::badOption)
                .setExecutionExceptionHandler(Main::failed);
    }

    /**
     * Starts serving, generates the missing blobs, and serves until Ctrl-C or SIGTERM; then lets the responses in
     * flight finish (up to 2 s) and returns 0.
     */
    @Override
    public Integer call() throws StartupException, InterruptedException {
        logLevel.apply();
        StopSignal stop = StopSignal.install();
        try (ExampleServer server = ExampleServer.builder(options).open()) {
            server.topUp(stop);
            stop.await();
        }
        return 0;
    }

    /** {@code --log-level}: slf4j-simple's default level, set before the first logger is made. */
    enum LogLevel {
        ERROR,
        WARN,
        INFO,
        DEBUG,
        TRACE;

        void apply() {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", name().toLowerCase(Locale.ROOT));
        }
    }

    /** An unknown option or a value picocli refused: its one-line message, then where to read on. */
    private static int badOption(ParameterException e, String[] args) {
        CommandLine refusing = e.getCommandLine();
        refusing.getErr().println(e.getMessage());
        refusing.getErr()
                .println("Try '" + refusing.getCommandSpec().qualifiedName() + " --help' for more information.");
        return refusing.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** A start-up failure: its one-line message; the stack trace goes to the log at {@code --log-level debug}. */
    private static int failed(Exception e, CommandLine commandLine, ParseResult parsed) {
        commandLine.getErr().println(e instanceof StartupException ? e.getMessage() : e.toString());
        LoggerFactory.getLogger(Main.class).debug("start-up failed", e);
        return commandLine.getCommandSpec().exitCodeOnExecutionException();
    }
}
