package dev.spanprofile.sampling;

import java.util.HashSet;
import java.util.Set;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.WaitKind;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.StoreSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A wait's detail (a file's path, a peer's host:port) is part of its leaf frame's name,
 * and frames are interned for the life of the process: details that never repeat must not
 * fill the frame table's share of max-memory (review 2026-12, finding 2: 68k upload temp
 * files did, and every later frame of any stack became the overflow placeholder).
 */
class WaitDetailFramesTest {

	@Test
	void uniqueFilePathsOfWaitsLeaveTheFrameTableToTheApplicationsFrames() {
		// The store's table, as SpanProfiler makes it from the default max-memory.
		SpanProfileStore store = new SpanProfileStore(StoreSettings.defaults());
		FrameTable frames = store.frames();
		// One converter per stream and one WaitDetails per engine, as
		// JfrWaitEngine.listen
		// names each wait's leaf.
		StackConverter stacks = new StackConverter(frames);
		WaitDetails details = new WaitDetails();
		long before = frames.approximateBytes();
		for (int upload = 0; upload < 150_000; upload++) {
			stacks.frame(details.leafName(WaitKind.FILE_WRITE, upload(upload)), FrameKind.WAIT);
		}
		int id = stacks.frame("com.example.orders.OrderService.place", FrameKind.JAVA);
		assertThat(frames.name(id)).isEqualTo("com.example.orders.OrderService.place");
		// The first uploads by name, then their directory: 257 frames, not 150,000.
		assertThat(frames.size()).isBetween(WaitDetails.DEFAULT_LIMIT + 1, WaitDetails.DEFAULT_LIMIT + 3);
		assertThat(frames.approximateBytes() - before).isBetween(20_000L, 200_000L);
		assertThat(details.leafName(WaitKind.FILE_WRITE, upload(3))).isEqualTo("[file write " + upload(3) + "]");
		assertThat(details.leafName(WaitKind.FILE_WRITE, upload(149_999)))
			.isEqualTo("[file write /tmp/tomcat.8080.4182277017893462761/work/Tomcat/localhost/ROOT/*]");
	}

	@Test
	void peersPastTheLimitFoldToTheirServiceWithoutEphemeralPorts() {
		WaitDetails details = new WaitDetails(2);
		assertThat(details.leafName(WaitKind.SOCKET_READ, "db:5432")).isEqualTo("[socket read db:5432]");
		assertThat(details.leafName(WaitKind.SOCKET_READ, "10.0.0.5:51234")).isEqualTo("[socket read 10.0.0.5:51234]");
		// Past the limit: a client's ephemeral port is dropped, a tenant's host too.
		assertThat(details.leafName(WaitKind.SOCKET_READ, "10.0.0.5:51235")).isEqualTo("[socket read 10.0.0.5]");
		assertThat(details.leafName(WaitKind.SOCKET_WRITE, "a:1")).isEqualTo("[socket write a:1]");
		assertThat(details.leafName(WaitKind.SOCKET_WRITE, "b:1")).isEqualTo("[socket write b:1]");
		assertThat(details.leafName(WaitKind.SOCKET_WRITE, "bucket-7.s3.example.com:443"))
			.isEqualTo("[socket write *.s3.example.com:443]");
		assertThat(details.leafName(WaitKind.SOCKET_WRITE, "bucket-8.s3.example.com:443"))
			.isEqualTo("[socket write *.s3.example.com:443]");
		// A peer with nothing to fold keeps its name in a coarse slot.
		assertThat(details.leafName(WaitKind.SOCKET_WRITE, "orders-db:5432"))
			.isEqualTo("[socket write orders-db:5432]");
		// A name the application gave stays whatever the limit.
		assertThat(details.leafName(WaitKind.SOCKET_WRITE, "PostgreSQL petclinic at db:5432", true))
			.isEqualTo("[socket write PostgreSQL petclinic at db:5432]");
	}

	@Test
	void whatFitsNeitherAsItIsNorCoarserIsOneFrame() {
		WaitDetails details = new WaitDetails(2);
		Set<String> names = new HashSet<>();
		for (int tenant = 0; tenant < 1000; tenant++) {
			names.add(details.leafName(WaitKind.FILE_READ, "/tenants/" + tenant + "/config.json"));
		}
		// Two paths, two directories, and the rest as one.
		assertThat(names).hasSize(5).contains("[file read " + WaitDetails.OTHERS + "]");
	}

	private static String upload(int upload) {
		return "/tmp/tomcat.8080.4182277017893462761/work/Tomcat/localhost/ROOT/upload_5f0c1a2e_4b7d_4e55_9a3b_"
				+ String.format("%012d", upload) + "_00000001.tmp";
	}

}
