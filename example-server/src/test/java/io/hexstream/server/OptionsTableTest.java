package io.hexstream.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code --help} and the options table of {@code example-server/README.md} ({@code ## Options}) name the same options,
 * with the same parameter labels and the same defaults.
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
