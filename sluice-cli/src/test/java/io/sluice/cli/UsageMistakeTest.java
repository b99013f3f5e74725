package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A command line the parser cannot take: the mistake first and a few lines, not the whole help. */
class UsageMistakeTest {

    @Test
    void aMissingParameterGivesTheMistakeTheSynopsisAndWhereTheHelpIs() {
        Cli.Result result = Cli.run("run");
        assertEquals(ExitStatus.USAGE, result.status());
        String[] lines = result.err().strip().split("\n");
        assertEquals("Missing required parameter: 'PIPELINE.yaml'", lines[0], result.err());
        assertTrue(lines[1].startsWith("Usage: sluice run "), result.err());
        assertEquals("'sluice run --help' explains every option.", lines[lines.length - 1], result.err());
        assertFalse(result.err().contains("Stop by itself"), "no option's description: " + result.err());
    }

    @Test
    void aBadValueNamesTheOptionAndItsValue() {
        Cli.Result result = Cli.run("lag", "--within", "soon", "p.yaml");
        assertEquals(ExitStatus.USAGE, result.status());
        assertTrue(result.err().startsWith("Invalid value for option '--within'"), result.err());
        assertTrue(result.err().contains("'sluice lag --help' explains every option."), result.err());
    }

    /** Picocli's own words for a map option without '=' said "option option". */
    @Test
    void aKeyValueOptionWithoutEqualsSaysWhatItTakes() {
        Cli.Result result = Cli.run("produce", "-t", "t", "-b", "127.0.0.1:1", "-X", "linger.ms");
        assertEquals(ExitStatus.USAGE, result.status());
        assertTrue(result.err().startsWith("Value for option '--producer-property' (KEY=VALUE) should be in KEY=VALUE "
                + "format but was linger.ms"), result.err());
    }

    @Test
    void aMisspeltOptionOrCommandGetsASuggestionInstead() {
        Cli.Result option = Cli.run("run", "--untill-end", "p.yaml");
        assertEquals(ExitStatus.USAGE, option.status());
        assertTrue(option.err().contains("Unknown option: '--untill-end'"), option.err());
        assertTrue(option.err().contains("--until-end"), option.err());
        assertFalse(option.err().contains("Usage:"), option.err());
        Cli.Result command = Cli.run("verfy", "p.yaml");
        assertEquals(ExitStatus.USAGE, command.status());
        assertTrue(command.err().contains("Did you mean: sluice verify"), command.err());
        assertFalse(command.err().contains("Usage:"), command.err());
        // a command a group lacks is said as such, with the ones it has ("Unmatched argument at index 1: 'stop'")
        Cli.Result sub = Cli.run("local", "stop");
        assertEquals(ExitStatus.USAGE, sub.status());
        assertTrue(sub.err().startsWith("sluice local has no command 'stop'; its commands: start"), sub.err());
    }

    /**
     * The commands that work on a plan or a journal do not list {@code --topic} and {@code --group} in their help, and
     * refuse them saying what they work on: every reassign command listed both, and {@code plan} took {@code --group}
     * and ignored it. (Picocli's own "Unknown options: '-t'" suggested {@code --throttle}.)
     */
    @Test
    void onlyTheCommandsThatWorkOnTopicsOrAGroupListAndTakeThem() {
        for (String command : List.of("execute", "resume", "cancel", "check")) {
            Cli.Result help = Cli.run("reassign", command, "--help");
            assertEquals(ExitStatus.OK, help.status(), help.err());
            assertFalse(help.out().contains("--topic") || help.out().contains("--group"), command + ": " + help.out());
            assertTrue(help.out().contains("--bootstrap-servers"), command + ": " + help.out());
        }
        Cli.Result narrowed = Cli.run("reassign", "execute", "plan.json", "-t", "events");
        assertEquals(ExitStatus.USAGE, narrowed.status());
        assertTrue(narrowed.err().startsWith("--topic is not for sluice reassign execute: it works on the moves its "
                + "plan names"), narrowed.err());
        Cli.Result grouped = Cli.run("reassign", "plan", "-b", "127.0.0.1:1", "--add-brokers", "4", "-g", "readers");
        assertEquals(ExitStatus.USAGE, grouped.status());
        assertTrue(grouped.err().startsWith("--group is not for sluice reassign plan: it works on the topics of "
                + "--topic, or every topic"), grouped.err());
        Cli.Result planHelp = Cli.run("reassign", "plan", "--help");
        assertTrue(planHelp.out().contains("--topic") && !planHelp.out().contains("--group"), planHelp.out());
        Cli.Result lag = Cli.run("lag", "--help");
        assertTrue(lag.out().contains("--topic") && lag.out().contains("--group"), lag.out());
    }
}
