package io.sluice.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.pipeline.Pipeline;
import io.sluice.cli.pipeline.Pipelines;
import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Passwords, keys and JAAS texts never appear in what the command prints, even about a broken file. */
class SecretsInErrorsTest {

    private static final String SECRET = "S3CR3T-value-4711";

    private static final String HEAD = """
            source:
              bootstrap-servers: localhost:9092
              topics: [clicks]
              group: archiver
            """;

    @ParameterizedTest
    @ValueSource(strings = {
        // a secret where a text is expected: the type error names the key, not the value
        "  sasl:\n    mechanism: PLAIN\n    username: u\n    password: [" + SECRET + "]\n",
        // a YAML syntax error on the line of a secret: YAML's own message would quote the line
        "  sasl:\n    mechanism: PLAIN\n    username: u\n    password: \"" + SECRET + "\n",
        // a misspelt secret key
        "  sasl:\n    mechanism: PLAIN\n    username: u\n    pasword: " + SECRET + "\n",
        // a JAAS text and a password at once
        "  sasl:\n    mechanism: PLAIN\n    username: u\n    password: x\n    jaas-config: 'x required password=\""
                + SECRET + "\";'\n",
        // a Kafka password setting that a section sets too
        "  tls:\n    verify-hostname: false\n  properties:\n    ssl.endpoint.identification.algorithm: "
                + SECRET + "\n",
        // a secret from a variable, in a file that has other mistakes
        "  sasl:\n    mechanism: SCRAM-SHA-512\n    username: u\n    password: ${PASSWORD}\n  properties:\n"
                + "    sasl.jaas.config: x\n"})
    void validateNamesTheKeyButNeverPrintsTheValue(String source) throws Exception {
        Path file = TestDirs.newDir("secrets").resolve("pipeline.yaml");
        Files.writeString(file, HEAD + source + "sink:\n  location: /tmp/sluice-archive\n");

        Cli.Result result = Cli.run(Map.of("PASSWORD", SECRET), "validate", file.toString());

        assertEquals(ExitStatus.USAGE, result.status(), result.out() + result.err());
        assertTrue(result.err().startsWith(file + ":"), result.err());
        assertFalse((result.out() + result.err()).contains(SECRET), result.err());
    }

    @Test
    void aLoadedPipelinePrintsItsSecretsHidden() throws Exception {
        String yaml = HEAD + """
                  tls:
                    verify-hostname: false
                  sasl:
                    mechanism: SCRAM-SHA-256
                    username: archiver
                    password: ${PASSWORD}
                  properties:
                    ssl.key.password: ${PASSWORD}
                sink:
                  location: s3://bucket/archive/
                  s3:
                    access-key: AKIA
                    secret-key: ${PASSWORD}
                """;
        Pipeline pipeline = Pipelines.parse("p.yaml", yaml, Path.of("."), Variables.of(Map.of("PASSWORD", SECRET)));

        assertFalse(pipeline.toString().contains(SECRET), pipeline.toString());
        assertTrue(pipeline.toString().contains("[hidden]"), pipeline.toString());
        assertEquals("SASL_SSL", pipeline.source().securityProtocol());
    }
}
