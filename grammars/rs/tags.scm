; placeholder: the map crate's extraction queries come here
