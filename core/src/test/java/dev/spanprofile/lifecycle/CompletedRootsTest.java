package dev.spanprofile.lifecycle;

import java.util.ArrayList;
import java.util.List;

import dev.spanprofile.store.RetentionSettings;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.Watermark;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CompletedRootsTest {

	private final SpanProfileStore store = new SpanProfileStore(
			new StoreSettings(100, Long.MAX_VALUE, false, RetentionSettings.recentOnly()));

	private final CompletedRoots roots = new CompletedRoots();

	private final List<String> handed = new ArrayList<>();

	CompletedRootsTest() {
		this.roots.addListener((root) -> this.handed.add(root.spanId()));
	}

	@Test
	void aRootIsHandedOnOnceItsSamplesAreJoinedAndNotAgainWhenDropped() {
		SpanRecord root = endedRoot("a", 1_000, 2_000);
		this.roots.completeUpTo(new Watermark(0, 1_999));
		assertThat(this.handed).as("samples up to its end not joined yet").isEmpty();
		assertThat(this.roots.waitingCount()).isEqualTo(1);
		this.roots.completeUpTo(new Watermark(0, 2_000));
		assertThat(this.handed).containsExactly("a");
		this.roots.dropped(root);
		this.roots.completeUpTo(new Watermark(0, 3_000));
		assertThat(this.handed).containsExactly("a");
		assertThat(this.roots.waitingCount()).isZero();
	}

	@Test
	void aRootDroppedBeforeItsSamplesAreJoinedIsHandedOnAtTheDropAndNotAgain() {
		SpanRecord dropped = endedRoot("a", 1_000, 2_000);
		endedRoot("b", 1_500, 2_500);
		this.roots.dropped(dropped);
		assertThat(this.handed).containsExactly("a");
		assertThat(this.roots.waitingCount()).isEqualTo(1);
		this.roots.completeUpTo(new Watermark(0, 3_000));
		assertThat(this.handed).containsExactly("a", "b");
		assertThat(this.roots.waitingCount()).isZero();
	}

	@Test
	void aRootStillRunningWhenDroppedIsHandedOnByTheNextCycleOnceEnded() {
		SpanRecord root = this.store.spanStarted("t", "a", null, false, "GET /a", "SERVER", 1_000, "w");
		// Queued as it ends, dropped in the instant before it is marked ended.
		this.roots.ended(root);
		this.roots.dropped(root);
		assertThat(this.handed).isEmpty();
		this.store.spanEnded("a", "GET /a", "OK", 2_000, false);
		this.roots.completeUpTo(new Watermark(0, 2_000));
		assertThat(this.handed).containsExactly("a");
	}

	private SpanRecord endedRoot(String id, long start, long end) {
		SpanRecord root = this.store.spanStarted("t", id, null, false, "GET /" + id, "SERVER", start, "w");
		this.roots.ended(root);
		this.store.spanEnded(id, "GET /" + id, "OK", end, false);
		return root;
	}

}
