package io.hexstream.server.cli;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.AnnotatedElement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code --help} and the options table of {@code example-server/README.md} ({@code ## Options}) name the same options,
 * with the same parameter labels and the same defaults; every command's help formats without a warning.
 */
class OptionsTableTest {
    /** An option's line in the help, one line each at a wide layout: names and label, then its description. */
    private static final Pattern HELP_LINE = Pattern.compile("^ {2}(-\\w, | {4})(--[\\w-]+\\S*) +(.*)$");
    /** What the help says the default is, at the end of a description. */
    private static final Pattern HELP_DEFAULT = Pattern.compile("\\(default: ([^()]*)\\)\\.$");

    @Test
    void helpAndTheReadmeTableAgreeOnEveryOptionAndDefault() throws Exception {
        Map<String, String> table = readmeTable();
        Map<String, String> help = help();
        assertTrue(help.size() >= 27, help.toString());
        assertEquals(help, table);
    }

    /**
     * picocli formats each option's description, as written in its annotation, with {@code String.format}; where that
     * fails (a bare {@code %}) it prints a warning with every {@code --help} and shows the text unformatted.
     */
    @Test
    void everyDescriptionOfEveryCommandIsAValidFormat() {
        CommandLine main = Main.commandLine();
        List<CommandLine> commands = new ArrayList<>(List.of(main));
        commands.addAll(main.getSubcommands().values());
        int checked = 0;
        for (CommandLine command : commands) {
            for (CommandLine.Model.ArgSpec arg : command.getCommandSpec().args()) {
                for (String line : annotatedDescription(arg)) {
                    assertDoesNotThrow(() -> String.format(line), command.getCommandName() + ": " + line);
                    checked++;
                }
            }
        }
        assertTrue(checked >= 40, checked + " descriptions");
    }

    /** The description as its annotation gives it, before picocli formats it. */
    private static String[] annotatedDescription(CommandLine.Model.ArgSpec arg) {
        if (arg.userObject() instanceof AnnotatedElement element) {
            CommandLine.Option option = element.getAnnotation(CommandLine.Option.class);
            if (option != null) {
                return option.description();
            }
            CommandLine.Parameters parameters = element.getAnnotation(CommandLine.Parameters.class);
            if (parameters != null) {
                return parameters.description();
            }
        }
        return new String[0]; // picocli's own (--help, --version)
    }

    /** Option (with its label) to its default as {@code --help} shows it; empty for none. */
    private static Map<String, String> help() {
        CommandLine commandLine = Main.commandLine();
        commandLine.setUsageHelpWidth(400);
        commandLine.setUsageHelpLongOptionsMaxWidth(100);
        Map<String, String> options = new TreeMap<>();
        for (String line :
                commandLine.getUsageMessage(CommandLine.Help.Ansi.OFF).split("\n")) {
            Matcher option = HELP_LINE.matcher(line);
            if (option.matches()) {
                Matcher shown = HELP_DEFAULT.matcher(option.group(3));
                String names = option.group(1).isBlank() ? option.group(2) : option.group(1) + option.group(2);
                options.put(names, shown.find() ? shown.group(1) : "");
            }
        }
        return options;
    }

    /** The same from the README's table. */
    private static Map<String, String> readmeTable() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        int section = readme.indexOf("## Options\n");
        assertTrue(section >= 0, "no ## Options section");
        int next = readme.indexOf("\n## ", section + 1);
        Map<String, String> options = new TreeMap<>();
        for (String line :
                readme.substring(section, next < 0 ? readme.length() : next).split("\n")) {
            if (line.startsWith("| `-")) { // | option | default | meaning |
                String[] cells = line.split("\\|");
                options.put(
                        cells[1].replace("`", "").strip(),
                        cells[2].replace("`", "").strip());
            }
        }
        return options;
    }
}
