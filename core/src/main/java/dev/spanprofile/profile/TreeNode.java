package dev.spanprofile.profile;

import java.util.Arrays;

/**
 * One frame of a {@link StackTree} under its caller, with its values per column. The
 * first column lives in fields; a node of a wider tree keeps the others in an array of
 * its own, so that a profile's nodes stay as small as one column allows.
 */
public class TreeNode {

	final int frame;

	long total;

	long self;

	long selfEvents;

	TreeNode[] children;

	int childCount;

	TreeNode(int frame) {
		this.frame = frame;
	}

	static TreeNode create(int frame, int columns) {
		return (columns == 1) ? new TreeNode(frame) : new Wide(frame, columns);
	}

	/** Weight of {@code column} through this node. */
	public long total(int column) {
		return (column == 0) ? this.total : extra(column, 0);
	}

	/** Weight of {@code column} ending in this node. */
	public long self(int column) {
		return (column == 0) ? this.self : extra(column, 1);
	}

	/** Events of {@code column} ending in this node (see {@link StackTree#events()}). */
	public long selfEvents(int column) {
		return (column == 0) ? this.selfEvents : extra(column, 2);
	}

	long extra(int column, int value) {
		throw new IndexOutOfBoundsException("column " + column + " of 1");
	}

	void add(int column, long total, long self, long selfEvents) {
		if (column != 0) {
			throw new IndexOutOfBoundsException("column " + column + " of 1");
		}
		this.total += total;
		this.self += self;
		this.selfEvents += selfEvents;
	}

	TreeNode child(int frame) {
		for (int i = 0; i < this.childCount; i++) {
			if (this.children[i].frame == frame) {
				return this.children[i];
			}
		}
		return null;
	}

	TreeNode addChild(int frame, int columns) {
		if (this.children == null) {
			this.children = new TreeNode[2];
		}
		else if (this.childCount == this.children.length) {
			this.children = Arrays.copyOf(this.children, this.childCount * 2);
		}
		TreeNode child = create(frame, columns);
		this.children[this.childCount++] = child;
		return child;
	}

	/**
	 * A node with columns beyond the first: total, self and events of each, in that
	 * order.
	 */
	private static final class Wide extends TreeNode {

		private final long[] others;

		Wide(int frame, int columns) {
			super(frame);
			this.others = new long[(columns - 1) * 3];
		}

		@Override
		long extra(int column, int value) {
			return this.others[(column - 1) * 3 + value];
		}

		@Override
		void add(int column, long total, long self, long selfEvents) {
			if (column == 0) {
				super.add(column, total, self, selfEvents);
				return;
			}
			int at = (column - 1) * 3;
			this.others[at] += total;
			this.others[at + 1] += self;
			this.others[at + 2] += selfEvents;
		}

	}

}
