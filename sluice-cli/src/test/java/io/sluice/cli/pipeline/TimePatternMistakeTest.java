package io.sluice.cli.pipeline;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.config.ConfigException;
import io.sluice.cli.config.Variables;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A template whose time letters read like others ({@code YYYY}, {@code hh}) is refused where the pipeline is run or
 * validated (BrokenPipelinesTest), but taken by the commands that read an archive made so (verify, lag): refused
 * there, an existing archive could not be audited.
 */
class TimePatternMistakeTest {

    private static final Path FILE = Path.of("src/test/resources/broken/template-week-based-year.yaml")
            .toAbsolutePath();

    @Test
    void aRunRefusesItAndAReaderTakesIt() throws Exception {
        ConfigException refused = assertThrows(ConfigException.class, () -> Pipelines.load(FILE,
                Variables.of(Map.of())));
        assertTrue(refused.getMessage().contains("Y is the week-based year"), refused.getMessage());
        Pipeline read = Pipelines.loadToRead(FILE, Variables.of(Map.of()));
        assertTrue(read.sink().template().contains("{ts:YYYY-MM-dd}"));
    }
}
