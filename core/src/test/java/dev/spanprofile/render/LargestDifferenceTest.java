package dev.spanprofile.render;

import java.util.List;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LargestDifferenceTest {

	private static final long MS = 1_000_000L;

	private final FrameTable frames = new FrameTable();

	private final FrameClassifier classifier = new FrameClassifier(List.of("com.example"));

	private final int orders = this.frames.intern("com.example.Orders.list", FrameKind.JAVA);

	private final int owners = this.frames.intern("com.example.Owners.find", FrameKind.JAVA);

	private final int receive = this.frames.intern("org.postgresql.core.PgStream.receive", FrameKind.JAVA);

	private final int jdkRead = this.frames.intern("java.net.Socket$SocketInputStream.read", FrameKind.JAVA);

	private final int read = this.frames.intern("[socket read localhost:5432]", FrameKind.WAIT);

	private final int park = this.frames.intern("[park]", FrameKind.WAIT);

	@Test
	void aWaitReachedByTwoPathsCountsOnceWithTheLibraryMethodThatCarriedMostOfIt() {
		StackTree slow = new StackTree();
		slow.add(new int[] { this.orders, this.receive, this.jdkRead, this.read }, 900 * MS);
		slow.add(new int[] { this.owners, this.jdkRead, this.read }, 300 * MS);
		slow.add(new int[] { this.orders, this.park }, 100 * MS);
		StackTree typical = new StackTree();
		typical.add(new int[] { this.orders, this.receive, this.jdkRead, this.read }, 40 * MS);
		typical.add(new int[] { this.orders, this.park }, 40 * MS);
		LargestDifference largest = LargestDifference.of(StackTree.sideBySide(slow, typical), this.frames,
				this.classifier, 2, 4);
		assertThat(largest.frame()).isEqualTo("[socket read localhost:5432]");
		// Not the JDK's read under it: the driver's method that most of the slow side's
		// reads came through.
		assertThat(largest.caller()).isEqualTo("org.postgresql.core.PgStream.receive");
		assertThat(largest.examinedPerRequest()).isEqualTo(600.0 * MS);
		assertThat(largest.typicalPerRequest()).isEqualTo(10.0 * MS);
		assertThat(largest.morePerRequest()).isEqualTo(590.0 * MS);
	}

	@Test
	void nothingWhenTheSlowSideWaitsNoLongerAnywhere() {
		StackTree slow = new StackTree();
		slow.add(new int[] { this.orders, this.park }, 10 * MS);
		StackTree typical = new StackTree();
		typical.add(new int[] { this.orders, this.park }, 40 * MS);
		StackTree both = StackTree.sideBySide(slow, typical);
		assertThat(LargestDifference.of(both, this.frames, this.classifier, 1, 2)).isNull();
		assertThat(LargestDifference.of(both, this.frames, this.classifier, 0, 2)).isNull();
	}

	@Test
	void withoutTypicalRequestsTheirSideIsZero() {
		StackTree slow = new StackTree();
		slow.add(new int[] { this.orders, this.park }, 10 * MS);
		LargestDifference largest = LargestDifference.of(StackTree.sideBySide(slow, new StackTree()), this.frames,
				this.classifier, 1, 0);
		assertThat(largest.frame()).isEqualTo("[park]");
		assertThat(largest.caller()).isEqualTo("com.example.Orders.list");
		assertThat(largest.typicalPerRequest()).isZero();
	}

}
