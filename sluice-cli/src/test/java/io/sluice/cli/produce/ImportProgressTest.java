package io.sluice.cli.produce;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which progress groups are a topic's default import names. */
class ImportProgressTest {

    private static final String PREFIX = ProduceCommand.PROGRESS_GROUP_PREFIX + "produce-orders-";

    /** An import into orders-eu was taken for one into orders, and orders' import of the same files refused. */
    @Test
    void onlyThePrefixAndAHashAreATopicsDefaultNameNotAnotherTopicWhoseNameStartsTheSame() {
        assertTrue(ImportProgress.isDefaultName(PREFIX + "0123456789abcdef", PREFIX));
        assertFalse(ImportProgress.isDefaultName(ProduceCommand.PROGRESS_GROUP_PREFIX + "produce-orders-eu-"
                + "0123456789abcdef", PREFIX));
        assertFalse(ImportProgress.isDefaultName(PREFIX + "0123456789abcde", PREFIX), "15 digits");
        assertFalse(ImportProgress.isDefaultName(PREFIX + "0123456789abcdeg", PREFIX), "not hex");
        assertFalse(ImportProgress.isDefaultName(PREFIX + "0123456789ABCDEF", PREFIX), "the hashes are lower case");
    }
}
