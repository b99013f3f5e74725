package io.sluice.mirror.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.mirror.copy.CopyBounds.FirstCopy;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The checkpoint data that says where a mirror's copies lie in the target, as written and as read back. */
class CopyBoundsTest {

    @Test
    void theFirstCopyOfTheProgressIsLearnedOnceAndKept() {
        assertTrue(CopyBounds.NONE.beforeTheFirstCopy());
        assertEquals("", CopyBounds.NONE.encode(), "no copy yet: no data");
        CopyBounds first = CopyBounds.NONE.after(20_041, Optional.of(new FirstCopy(20_000, 7)));
        assertEquals("copies-below=20042;first-copy=20000@7", first.encode());
        assertFalse(first.beforeTheFirstCopy());
        // a later run's first copy is not the progress's: the one learned stays
        CopyBounds later = CopyBounds.decode(Optional.of(first.encode())).after(30_000,
                Optional.of(new FirstCopy(29_990, 500)));
        assertEquals("copies-below=30001;first-copy=20000@7", later.encode());
    }

    @Test
    void anEarlierVersionsDataSaysOnlyWhereTheCopiesEnd() {
        CopyBounds earlier = CopyBounds.decode(Optional.of("copies-below=120"));
        assertEquals(new CopyBounds(OptionalLong.of(120), Optional.empty()), earlier);
        assertFalse(earlier.beforeTheFirstCopy(), "copies were made, from an unknown first one: none is learned");
        assertEquals("copies-below=151", earlier.after(150, Optional.empty()).encode());
    }

    @Test
    void dataThatIsNotTheMirrorsNamesNoCopies() {
        assertEquals(CopyBounds.NONE, CopyBounds.decode(Optional.empty()));
        assertEquals(CopyBounds.NONE, CopyBounds.decode(Optional.of("something else")));
        assertEquals(new CopyBounds(OptionalLong.of(9), Optional.empty()),
                CopyBounds.decode(Optional.of("copies-below=9;first-copy=x@y")), "a first copy that does not parse");
    }
}
