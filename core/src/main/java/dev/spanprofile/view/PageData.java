package dev.spanprofile.view;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON body's part as the maps and lists the pages embed ({@code render/html} writes
 * maps, not records), so that a page's script reads the same keys in the same order as
 * the endpoint serves: one record states them for both. A {@code null} component is left
 * out, as the parts the pages embed leave their optional keys out; a page reads an absent
 * key and a null one alike.
 */
final class PageData {

	private PageData() {
	}

	/**
	 * {@code part}'s components in their order, records and lists of them converted the
	 * same way.
	 */
	static Map<String, Object> map(Record part) {
		RecordComponent[] components = part.getClass().getRecordComponents();
		Map<String, Object> map = new LinkedHashMap<>(components.length * 2);
		for (RecordComponent component : components) {
			Object value = value(component, part);
			if (value != null) {
				map.put(component.getName(), convert(value));
			}
		}
		return map;
	}

	private static Object convert(Object value) {
		if (value instanceof Record record) {
			return map(record);
		}
		if (value instanceof List<?> list && !list.isEmpty() && list.get(0) instanceof Record) {
			List<Object> converted = new ArrayList<>(list.size());
			for (Object element : list) {
				converted.add(convert(element));
			}
			return converted;
		}
		return value;
	}

	private static Object value(RecordComponent component, Record part) {
		try {
			return component.getAccessor().invoke(part);
		}
		catch (IllegalAccessException | InvocationTargetException ex) {
			throw new IllegalStateException("Cannot read " + component.getName() + " of " + part.getClass(), ex);
		}
	}

}
