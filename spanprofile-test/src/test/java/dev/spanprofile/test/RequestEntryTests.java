package dev.spanprofile.test;

import java.util.ArrayList;
import java.util.List;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A request a test made through MockMvc starts at {@code MockMvc.perform}: the frames
 * below it are the test's and are cut from its samples.
 */
class RequestEntryTests {

	private final FrameTable frames = new FrameTable();

	@Test
	void theTestsFramesBelowMockMvcAreCutAndTheWeightsKept() {
		StackTree samples = new StackTree();
		samples.add(stack("org.apache.maven.surefire.booter.ForkedBooter.main", "com.example.CheckoutTests.budget",
				"org.springframework.test.web.servlet.MockMvc.perform",
				"org.springframework.mock.web.MockFilterChain.doFilter", "com.example.Checkout.price"), 5, 0);
		samples.add(stack("org.apache.maven.surefire.booter.ForkedBooter.main", "com.example.CheckoutTests.budget",
				"org.springframework.test.web.servlet.MockMvc.perform",
				"org.springframework.mock.web.MockFilterChain.doFilter",
				"org.springframework.web.servlet.DispatcherServlet.doDispatch"), 3, 2);
		// On the entry frame itself: it stays, alone.
		samples.add(stack("org.apache.maven.surefire.booter.ForkedBooter.main", "com.example.CheckoutTests.budget",
				"org.springframework.test.web.servlet.MockMvc.perform"), 1, 0);
		// A request on a server's thread has no test below it.
		samples.add(stack("java.lang.Thread.run", "org.apache.tomcat.util.threads.TaskThread$WrappingRunnable.run",
				"com.example.Checkout.price"), 4, 0);

		StackTree cut = RequestEntry.cut(samples, this.frames);

		assertThat(stacks(cut)).containsExactlyInAnyOrder(
				"org.springframework.mock.web.MockFilterChain.doFilter;com.example.Checkout.price 5",
				"org.springframework.mock.web.MockFilterChain.doFilter;"
						+ "org.springframework.web.servlet.DispatcherServlet.doDispatch 3",
				"org.springframework.test.web.servlet.MockMvc.perform 1",
				"java.lang.Thread.run;org.apache.tomcat.util.threads.TaskThread$WrappingRunnable.run;"
						+ "com.example.Checkout.price 4");
		assertThat(cut.totalSamples()).isEqualTo(samples.totalSamples());
		assertThat(cut.events()).isEqualTo(2);
	}

	private int[] stack(String... names) {
		int[] stack = new int[names.length];
		for (int i = 0; i < names.length; i++) {
			stack[i] = this.frames.intern(names[i], FrameKind.JAVA);
		}
		return stack;
	}

	private List<String> stacks(StackTree tree) {
		List<String> lines = new ArrayList<>();
		tree.visit((path, depth, total, self) -> {
			if (self > 0) {
				List<String> names = new ArrayList<>();
				for (int i = 0; i < depth; i++) {
					names.add(this.frames.name(path[i]));
				}
				lines.add(String.join(";", names) + " " + self);
			}
		});
		return lines;
	}

}
