/**
 * A product's small picture in a tinted box, which stays when there is no picture so rows keep their shape.
 * Decorative (alt=""): the title beside it names the product. `className` gives the box its size.
 */
export function Thumbnail({
  src,
  width,
  height,
  className,
  lazy = false,
}: {
  src: string | undefined;
  width: number;
  height: number;
  className: string;
  lazy?: boolean;
}) {
  return (
    <span className={`shrink-0 overflow-hidden rounded-lg bg-accent-soft ${className}`}>
      {src && (
        <img
          src={src}
          alt=""
          width={width}
          height={height}
          loading={lazy ? "lazy" : undefined}
          className="h-full w-full object-contain"
        />
      )}
    </span>
  );
}
