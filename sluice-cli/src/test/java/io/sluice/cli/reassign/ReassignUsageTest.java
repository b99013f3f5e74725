package io.sluice.cli.reassign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Bad command lines of {@code sluice reassign}: status 2 and words that say what is wrong, before any broker. */
class ReassignUsageTest {

    @Test
    void withoutASubcommandItSaysWhatItCanDo() {
        Cli.Result result = Cli.run("reassign");
        assertEquals(ExitStatus.USAGE, result.status());
        assertTrue(result.err().contains("plan, execute, resume, cancel, check or who-reads"), result.err());
    }

    @Test
    void aPlanNeedsTheBrokersAndExactlyOneGoal() {
        Cli.Result noBrokers = Cli.run("reassign", "plan", "--balance");
        assertEquals(ExitStatus.USAGE, noBrokers.status());
        assertTrue(noBrokers.err().contains("--bootstrap-servers"), noBrokers.err());
        Cli.Result twoGoals = Cli.run("reassign", "plan", "-b", "127.0.0.1:1", "--balance", "--add-brokers", "4");
        assertEquals(ExitStatus.USAGE, twoGoals.status());
        assertTrue(twoGoals.err().contains("mutually exclusive"), twoGoals.err());
        Cli.Result share = Cli.run("reassign", "plan", "-b", "127.0.0.1:1", "--balance", "--max-disk-use", "120%");
        assertEquals(ExitStatus.USAGE, share.status());
        assertTrue(share.err().contains("at most 100%"), share.err());
        Cli.Result twice = Cli.run("reassign", "plan", "-b", "127.0.0.1:1", "--balance", "-X",
                "bootstrap.servers=127.0.0.1:2");
        assertEquals(ExitStatus.USAGE, twice.status());
        assertTrue(twice.err().contains("-X bootstrap.servers names the brokers a second time: give them once, with -b"),
                twice.err());
        // a bare 80 read as 8,000%: the words named the bounds, not the mistake
        Cli.Result bare = Cli.run("reassign", "plan", "-b", "127.0.0.1:1", "--balance", "--max-disk-use", "80");
        assertEquals(ExitStatus.USAGE, bare.status());
        assertTrue(bare.err().contains("not 80 (for 80 percent, write 80%)"), bare.err());
    }

    /**
     * A port nobody listens on is said at once for every subcommand that talks to the cluster (each waited out the
     * admin client's 60 s, then spoke of node assignments and ListGroups); a -X typo is a usage error first.
     */
    @Test
    void aClusterNobodyListensOnIsSaidBeforeAnyAdminClientWaits() {
        for (String[] command : new String[][] {{"plan", "--balance"}, {"check"}, {"who-reads", "-t", "t"}}) {
            String[] args = new String[command.length + 3];
            args[0] = "reassign";
            System.arraycopy(command, 0, args, 1, command.length);
            args[command.length + 1] = "-b";
            args[command.length + 2] = "127.0.0.1:1";
            Cli.Result result = Cli.run(args);
            assertEquals(ExitStatus.FAILURE, result.status(), String.join(" ", args) + ": " + result.err());
            assertTrue(result.err().contains("no broker answers: 127.0.0.1:1: nothing listens there"), result.err());
        }
        Cli.Result typo = Cli.run("reassign", "check", "-b", "127.0.0.1:1", "-X", "secuirty.protocol=SSL");
        assertEquals(ExitStatus.USAGE, typo.status(), typo.err());
        assertTrue(typo.err().contains("did you mean 'security.protocol'?"), typo.err());
    }

    /**
     * A port that answers, but not as Kafka (another service's), is a usage mistake said in a line: the command's
     * synopsis followed it, which said nothing about the port.
     */
    @Test
    void aPortThatIsNotKafkasIsSaidWithoutTheSynopsis() throws Exception {
        try (ServerSocket other = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread server = new Thread(() -> {
                while (!other.isClosed()) {
                    try (Socket s = other.accept()) {
                        s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\n\r\n"
                                .getBytes(StandardCharsets.US_ASCII));
                    } catch (IOException e) {
                        return; // closed
                    }
                }
            });
            server.start();
            Cli.Result result = Cli.run("reassign", "check", "-b", "127.0.0.1:" + other.getLocalPort());
            assertEquals(ExitStatus.USAGE, result.status(), result.err());
            assertTrue(result.err().contains("something answers there, but neither as Kafka nor with TLS"),
                    result.err());
            assertFalse(result.err().contains("Usage:"), result.err());
        }
    }
}
