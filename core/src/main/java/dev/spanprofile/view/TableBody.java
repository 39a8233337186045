package dev.spanprofile.view;

/**
 * The JSON of a {@link TableView}: the span names, or the stored requests behind one
 * frame. Each is a record whose components are its keys in their order.
 */
public sealed interface TableBody permits NameListJson, FrameSpansJson {

}
